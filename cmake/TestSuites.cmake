# s2s_add_gtest_suites(<target> PREFIX <p> LABELS <labels> [TIMEOUT <s>])
#
# Registers one ctest test per GoogleTest suite of <target>, named <p>.<Suite> and run as
# `<target> --gtest_filter=<Suite>.*`, for binaries linked with LibTorch. Why not one test per
# case (gtest_discover_tests): such a binary takes about 0.8 s to start (about 3 s under
# AddressSanitizer) while most of its cases compute for a millisecond, so ~1,000 processes cost
# twenty times what the tests compute. A failing suite's output names its failing cases; run
# one case with `<binary> --gtest_filter=Suite.Case`.
#
# The suites are listed when ctest runs (the binary's --gtest_list_tests), so adding a test
# needs no reconfigure. A binary that was not built (the asan preset skips what it does not run)
# becomes one failing test <p>.not_built, which label filters leave out like the rest.
set(S2S_SUITES_SCRIPT ${CMAKE_CURRENT_LIST_DIR}/TestSuitesAdd.cmake)

function(s2s_add_gtest_suites target)
  cmake_parse_arguments(ARG "" "PREFIX;LABELS;TIMEOUT" "" ${ARGN})
  if(NOT ARG_TIMEOUT)
    set(ARG_TIMEOUT 600)
  endif()
  set(include_file ${CMAKE_CURRENT_BINARY_DIR}/${target}_suites.cmake)
  file(GENERATE OUTPUT ${include_file} CONTENT
"set(S2S_SUITES_EXE [==[$<TARGET_FILE:${target}>]==])
set(S2S_SUITES_PREFIX [==[${ARG_PREFIX}]==])
set(S2S_SUITES_LABELS [==[${ARG_LABELS}]==])
set(S2S_SUITES_TIMEOUT [==[${ARG_TIMEOUT}]==])
set(S2S_SUITES_DIR [==[${CMAKE_CURRENT_BINARY_DIR}]==])
include([==[${S2S_SUITES_SCRIPT}]==])
")
  set_property(DIRECTORY APPEND PROPERTY TEST_INCLUDE_FILES ${include_file})
endfunction()
