-- examples/ack.ad in Lua, on floats with the same guards (bench/interp/interp_bench.cpp).
--   lua5.4 ack.lua M N
local function ack(m, n)
  if m < 0.5 then
    return n + 1
  elseif n < 0.5 then
    return ack(m - 1, 1.0)
  else
    return ack(m - 1, ack(m, n - 1))
  end
end
print(ack(tonumber(arg[1]) + 0.0, tonumber(arg[2]) + 0.0))
