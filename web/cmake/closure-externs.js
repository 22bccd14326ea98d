/**
 * @fileoverview Globals the page's own JS (EM_JS / EM_ASM in web/src) uses that Closure Compiler's
 * browser externs declare only as properties of Window (closure.sh passes this file).
 * @externs
 */
/** @type {!Storage} */
var localStorage;
