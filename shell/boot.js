// Page-side start-up of the Sizer app, shared by index.html (as boot.js) and the offline single
// file (inlined): checks for WebAssembly and WebGL2, shows loading and error messages, and hands
// the canvas to the Emscripten runtime through the global `Module`.
var Module = (function () {
  'use strict';
  var status = document.getElementById('status');
  var canvas = document.getElementById('canvas');

  function show(text, isError) {
    status.textContent = text;
    status.className = isError ? 'error' : '';
    status.hidden = false;
  }
  var failed = false;
  function fail(text) {  // the first failure is the one worth reading; later ones are its echoes
    if (failed) return;
    failed = true;
    show(text, true);
    canvas.hidden = true;
  }

  // The app's WebGL2 context, made on the page's canvas while the wasm is still being fetched and
  // compiled (the main thread is idle then), and handed to the runtime (-sGL_PREINITIALIZED_CONTEXT):
  // making it (8–25 ms under SwiftShader) no longer comes after the wasm starts. The attributes are
  // the ones Emscripten's GLFW asks for (library_glfw.js: no antialiasing; alpha, depth and stencil
  // from GLFW's default hints), so the context is the one the app would have made.
  // The drawing buffer gets its final size (CSS size × devicePixelRatio, rounded as main.cpp's
  // fit_canvas does) before the context exists: each later resize costs 2–10 ms of reallocation.
  function makeContext() {
    var startup = window.sizerStartup || (window.sizerStartup = {});
    startup.boot = performance.now();
    var rect = canvas.getBoundingClientRect(), dpr = window.devicePixelRatio || 1;
    canvas.width = Math.round(rect.width * dpr);
    canvas.height = Math.round(rect.height * dpr);
    var context = null;
    try {
      context = canvas.getContext('webgl2', { antialias: false, alpha: true, depth: true, stencil: true });
    } catch (e) { /* reported as missing WebGL2 */ }
    startup.context = performance.now();
    return context;
  }
  var kNoWebGL2 = 'Sizer needs WebGL2, which is missing or turned off in this browser (check hardware acceleration settings).';

  var module = {
    canvas: canvas,
    print: function (text) { console.log(text); },
    printErr: function (text) { console.warn(text); },
    setStatus: function (text) { if (text && !failed) show(text, false); },
    onAbort: function (what) { fail('Sizer stopped: ' + what + '. Reload the page to try again.'); },
    sizerFirstFrame: function () {
      window.sizerFirstFrameMs = performance.now();  // since navigation start (scripts/bench-web.mjs)
      window.sizerStartup.frame = window.sizerFirstFrameMs;
      status.hidden = true;
      document.documentElement.dataset.sizer = 'ready';
      canvas.focus({ preventScroll: true });  // keyboard use works from page load
    },
    onRuntimeInitialized: function () { window.sizerStartup.runtime = performance.now(); },
    sizerNoWebGL2: function () { fail(kNoWebGL2); },
  };

  canvas.addEventListener('contextmenu', function (e) { e.preventDefault(); });
  // Keys the app uses (arrows, Page, Home/End, Space, Ctrl/Cmd+A) act inside the canvas only: their
  // default actions (scrolling, selecting the page) are cancelled. GLFW still reads every keydown,
  // and Space's character still arrives: its scrolling is cancelled on keypress, not keydown.
  var appKeys = { ArrowUp: 1, ArrowDown: 1, ArrowLeft: 1, ArrowRight: 1, PageUp: 1, PageDown: 1, Home: 1, End: 1 };
  canvas.addEventListener('keydown', function (e) {
    if (appKeys[e.key] || ((e.ctrlKey || e.metaKey) && (e.key === 'a' || e.key === 'A'))) e.preventDefault();
  });
  canvas.addEventListener('keypress', function (e) { if (e.key === ' ') e.preventDefault(); });
  canvas.addEventListener('webglcontextlost', function (e) {
    e.preventDefault();
    fail('The graphics context was lost. Reload the page.');
  });
  window.addEventListener('error', function (e) { fail('Sizer failed: ' + e.message); });

  // The WebAssembly is compiled before the WebGL2 context is made: compiling runs on the browser's
  // background threads, making the context on this one, so the two overlap. The offline file's
  // loader (inlined before this script) has already started inflating and compiling its copy
  // (window.sizerWasm); the hosted page names its file on the canvas (data-wasm) and it is fetched
  // here, as the runtime would fetch it (the same request as the page's preload), and compiled
  // while it downloads. The runtime then only instantiates it (Module.instantiateWasm).
  function compileHosted(url) {
    function whole() {  // a host that serves .wasm without its MIME type defeats streaming: fetched again
      return fetch(url, { credentials: 'same-origin' }).then(function (r) { return r.arrayBuffer(); })
        .then(function (bytes) { return WebAssembly.compile(bytes); });
    }
    if (typeof WebAssembly.compileStreaming !== 'function') return whole();
    return WebAssembly.compileStreaming(fetch(url, { credentials: 'same-origin' })).catch(whole);
  }
  function instantiateWith(wasm) {  // Module.instantiateWasm: the runtime's imports into the compiled module
    return function (imports, receive) {
      if (wasm.error) {
        fail(wasm.error);
        return {};
      }
      wasm.compiled.then(function (compiled) {
        return WebAssembly.instantiate(compiled, imports).then(function (instance) { receive(instance, compiled); });
      }).catch(function (e) { fail('Sizer could not start its WebAssembly: ' + e); });
      return {};
    };
  }

  if (typeof WebAssembly !== 'object') {
    fail('Sizer needs WebAssembly, which this browser does not provide. Use a current Chrome, Edge, Firefox or Safari.');
    module.noInitialRun = true;
    return module;
  }
  var wasm = window.sizerWasm || (canvas.getAttribute('data-wasm') && { compiled: compileHosted(canvas.getAttribute('data-wasm')) });
  if (wasm) module.instantiateWasm = instantiateWith(wasm);
  if (!(module.preinitializedWebGLContext = makeContext())) {
    fail(kNoWebGL2);
    module.noInitialRun = true;
  } else {
    show('Loading Sizer\u2026', false);
  }
  return module;
})();
