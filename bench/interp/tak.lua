-- examples/tak.ad in Lua, on floats with the same guard (bench/interp/interp_bench.cpp).
--   lua5.4 tak.lua X Y Z
local function tak(x, y, z)
  if y < x - 0.5 then
    return tak(tak(x - 1, y, z), tak(y - 1, z, x), tak(z - 1, x, y))
  else
    return z
  end
end
print(tak(tonumber(arg[1]) + 0.0, tonumber(arg[2]) + 0.0, tonumber(arg[3]) + 0.0))
