"""What inlining a WebAssembly file into a page or a module needs (inline_offline.py, join_api.py)."""
import gzip, os, shutil, subprocess


def compress(path):
    """gzip of the file: zopfli's (about 4% smaller) when Debian's zopfli is installed, else zlib's -9."""
    if shutil.which('zopfli'):
        return subprocess.run(['zopfli', '-c', path], stdout=subprocess.PIPE, check=True).stdout
    return gzip.compress(open(path, 'rb').read(), compresslevel=9, mtime=0)


def unname_wasm(js, wasm_path, placeholder):
    """The Emscripten glue with the wasm file's name (which it would fetch without instantiateWasm)
    replaced by `placeholder`: once inlined there is no such file, and the glue names none."""
    name = os.path.basename(wasm_path)
    return js.replace('"' + name + '"', '"' + placeholder + '"').replace("'" + name + "'", "'" + placeholder + "'")
