# Closure Compiler (advanced mode) on the Emscripten JS glue: sizer_closure(TARGET) links TARGET
# with --closure 1, run through closure.sh (the npm package google-closure-compiler that
# scripts/deps.sh installs into node_modules; Debian's closure-compiler is too old), with externs
# for every name the page's own JS in web/src uses (page_externs.py), so those keep their names.
# Without node_modules the glue is left as Emscripten writes it (about 2.2x larger), with a warning.
set(SIZER_CLOSURE_BIN "${SIZER_ROOT}/node_modules/.bin/google-closure-compiler")
set(SIZER_PAGE_EXTERNS "${CMAKE_CURRENT_BINARY_DIR}/page-externs.js")
if(EXISTS "${SIZER_CLOSURE_BIN}")
  file(GLOB _sizer_page_js CONFIGURE_DEPENDS "${CMAKE_CURRENT_SOURCE_DIR}/src/*.cpp" "${CMAKE_CURRENT_SOURCE_DIR}/src/*.h")
  add_custom_command(OUTPUT "${SIZER_PAGE_EXTERNS}"
    COMMAND "${SIZER_PYTHON3}" "${CMAKE_CURRENT_SOURCE_DIR}/cmake/page_externs.py" "${SIZER_PAGE_EXTERNS}" ${_sizer_page_js}
    DEPENDS ${_sizer_page_js} "${CMAKE_CURRENT_SOURCE_DIR}/cmake/page_externs.py"
    COMMENT "Writing Closure externs for the page's JS" VERBATIM)
  add_custom_target(sizer_page_externs DEPENDS "${SIZER_PAGE_EXTERNS}")
else()
  message(WARNING "No ${SIZER_CLOSURE_BIN} (run scripts/deps.sh): the JS glue is not minified by Closure")
endif()

function(sizer_closure target)
  if(NOT EXISTS "${SIZER_CLOSURE_BIN}")
    return()
  endif()
  target_link_options(${target} PRIVATE --closure 1)
  add_dependencies(${target} sizer_page_externs)
  set_property(TARGET ${target} PROPERTY RULE_LAUNCH_LINK
    "${CMAKE_COMMAND} -E env EM_CLOSURE_COMPILER=${CMAKE_CURRENT_SOURCE_DIR}/cmake/closure.sh SIZER_CLOSURE_EXTERNS=${SIZER_PAGE_EXTERNS}")
  set_property(TARGET ${target} APPEND PROPERTY LINK_DEPENDS "${SIZER_PAGE_EXTERNS}"
    "${CMAKE_CURRENT_SOURCE_DIR}/cmake/closure.sh" "${CMAKE_CURRENT_SOURCE_DIR}/cmake/closure-externs.js")
endfunction()
