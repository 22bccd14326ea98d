# Makes site/sizer.mjs from the Emscripten module factory (CORE, an ES module whose last statement
# is `export default createSizerCore;`) and the hand-written API (API): the factory's export is
# dropped and the API, which defines the module's exports, appended. Run with cmake -P.
file(READ "${CORE}" _core)
string(REPLACE "export default createSizerCore;" "" _core "${_core}")
file(READ "${API}" _api)
file(WRITE "${OUT}" "${_core}\n${_api}")
