# AddressSanitizer + UndefinedBehaviorSanitizer, used by the `asan` preset.
function(s2s_enable_sanitizers target)
  target_compile_options(${target} INTERFACE -fsanitize=address,undefined -fno-omit-frame-pointer
                                             -fno-sanitize-recover=undefined)
  target_link_options(${target} INTERFACE -fsanitize=address,undefined)
endfunction()
