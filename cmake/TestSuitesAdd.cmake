# Run by ctest (script mode) through the include file s2s_add_gtest_suites writes
# (TestSuites.cmake): lists the binary's suites and adds one test per suite.
if(NOT EXISTS "${S2S_SUITES_EXE}")
  add_test("${S2S_SUITES_PREFIX}.not_built" "${CMAKE_COMMAND}" -E echo
           "${S2S_SUITES_EXE} was not built")
  set_tests_properties("${S2S_SUITES_PREFIX}.not_built" PROPERTIES
                       LABELS "${S2S_SUITES_LABELS}" WILL_FAIL TRUE)
  return()
endif()

execute_process(COMMAND "${S2S_SUITES_EXE}" --gtest_list_tests
                WORKING_DIRECTORY "${S2S_SUITES_DIR}"
                OUTPUT_VARIABLE listing RESULT_VARIABLE listed TIMEOUT 300)
if(NOT listed EQUAL 0)
  add_test("${S2S_SUITES_PREFIX}.listing" "${S2S_SUITES_EXE}" --gtest_list_tests)
  set_tests_properties("${S2S_SUITES_PREFIX}.listing" PROPERTIES
                       LABELS "${S2S_SUITES_LABELS}" WORKING_DIRECTORY "${S2S_SUITES_DIR}")
  return()
endif()

# A suite line starts in column 0 and ends with '.', optionally followed by a type comment
# ("Suite.  # TypeParam = int"); case lines are indented.
string(REPLACE "\n" ";" lines "${listing}")
foreach(line IN LISTS lines)
  if(line MATCHES "^([^ #][^ ]*)\\.( .*)?$")
    set(suite "${CMAKE_MATCH_1}")
    set(name "${S2S_SUITES_PREFIX}.${suite}")
    add_test("${name}" "${S2S_SUITES_EXE}" "--gtest_filter=${suite}.*")
    set_tests_properties("${name}" PROPERTIES
                         LABELS "${S2S_SUITES_LABELS}" TIMEOUT "${S2S_SUITES_TIMEOUT}"
                         WORKING_DIRECTORY "${S2S_SUITES_DIR}")
  endif()
endforeach()
