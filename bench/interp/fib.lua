-- examples/fib.ad in Lua, on floats with the same guard (bench/interp/interp_bench.cpp).
--   lua5.4 fib.lua N
local function fib(n)
  if n < 1.5 then return n else return fib(n - 1) + fib(n - 2) end
end
print(fib(tonumber(arg[1]) + 0.0))
