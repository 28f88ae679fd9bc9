# Strict warnings, attached per target through an INTERFACE library (never global flags).
function(s2s_set_warnings target)
  target_compile_options(${target} INTERFACE
    -Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor -Wold-style-cast -Wcast-align
    -Wunused -Woverloaded-virtual -Wconversion -Wsign-conversion
    -Wdouble-promotion -Wformat=2 -Wimplicit-fallthrough -Wmisleading-indentation
    -Wduplicated-cond -Wduplicated-branches -Wlogical-op)
endfunction()
