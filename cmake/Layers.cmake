# One library target per source folder, with layers that only point down:
#
#   cli -> experiments -> train -> eval -> checkpoint -> run -> data -> config -> util
#    |                             ^ |          `-> device, model -> platform -> util
#    `-> serve --------------------' `-> loss, batching -> data;  metrics -> util
#
# (and each layer also names the lower ones it includes directly: the root CMakeLists.txt).
# s2s_layer(NAME USES dep...) builds src/NAME/*.cpp into s2s_NAME, linked to the layers it names.
# USES names every layer whose headers a file of src/NAME includes itself, and no other
# (tests/layers/layers_test.sh checks both ways). Its sources see headers through an include
# root of its own, build/layers/NAME/, that holds links to src/NAME and to the folders of the
# layers below it (USES and, transitively, what they use: a header of a used layer includes its
# own layers' headers, which resolve from the includer's root) and to nothing else:
# `#include "train/trainer.h"` in src/eval/ fails to compile with "No such file". That a file
# includes only the layers its own USES names, not merely ones it sees, is the test's to check.
# Programs and tests above every layer include from src/ through s2s_all.
#
# The table of layers is written at configure time to ${S2S_LAYER_TABLE} for that test, bottom
# up, one line a layer: "NAME | USES... | SEES..." (lists separated by spaces, possibly empty):
#
#   util |  | util
#   config | util | config util

set(S2S_LAYER_ROOTS ${CMAKE_BINARY_DIR}/layers)
set(S2S_LAYER_TABLE ${S2S_LAYER_ROOTS}/layers.txt)
set_property(GLOBAL PROPERTY S2S_LAYER_TABLE_LINES "")

function(s2s_layer name)
  cmake_parse_arguments(L "TORCH" "" "USES" ${ARGN})
  set(visible ${name})
  foreach(dep IN LISTS L_USES)
    get_property(dep_visible GLOBAL PROPERTY S2S_LAYER_VISIBLE_${dep})
    list(APPEND visible ${dep_visible})
  endforeach()
  list(REMOVE_DUPLICATES visible)
  set_property(GLOBAL PROPERTY S2S_LAYER_VISIBLE_${name} ${visible})

  set(root ${S2S_LAYER_ROOTS}/${name})
  file(REMOVE_RECURSE ${root})
  file(MAKE_DIRECTORY ${root})
  foreach(folder IN LISTS visible)
    file(CREATE_LINK ${PROJECT_SOURCE_DIR}/src/${folder} ${root}/${folder} SYMBOLIC)
  endforeach()

  file(GLOB sources CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/src/${name}/*.cpp)
  add_library(s2s_${name} STATIC ${sources})
  target_include_directories(s2s_${name} PRIVATE ${root})
  foreach(dep IN LISTS L_USES)
    target_link_libraries(s2s_${name} PUBLIC s2s_${dep})
  endforeach()
  target_link_libraries(s2s_${name} PRIVATE s2s_options)
  if(L_TORCH)
    target_link_libraries(s2s_${name} PUBLIC torch)
    if(TARGET s2s_pch)
      target_precompile_headers(s2s_${name} REUSE_FROM s2s_pch)
    endif()
  endif()
  set_property(GLOBAL APPEND PROPERTY S2S_LAYERS s2s_${name})

  # The table so far, rewritten whole at each layer: the last call leaves all of them.
  list(JOIN L_USES " " uses_text)
  list(JOIN visible " " visible_text)
  get_property(lines GLOBAL PROPERTY S2S_LAYER_TABLE_LINES)
  string(APPEND lines "${name} | ${uses_text} | ${visible_text}\n")
  set_property(GLOBAL PROPERTY S2S_LAYER_TABLE_LINES "${lines}")
  file(WRITE ${S2S_LAYER_TABLE} "${lines}")
endfunction()
