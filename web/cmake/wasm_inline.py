"""What inlining a WebAssembly file into a page or a module needs (inline_offline.py, join_api.py)."""
import gzip, lzma, os, shutil, struct, subprocess


def compress(path):
    """gzip of the file: zopfli's (about 4% smaller) when Debian's zopfli is installed, else zlib's -9."""
    if shutil.which('zopfli'):
        return subprocess.run(['zopfli', '-c', path], stdout=subprocess.PIPE, check=True).stdout
    return gzip.compress(open(path, 'rb').read(), compresslevel=9, mtime=0)


def compress_lzma(path):
    """LZMA ("lzma_alone", as web/js/lzma.js decodes it) with the data's size in the header, which
    liblzma leaves unknown: the decoder then allocates its output once. lc 4, lp 0, pb 0 suit
    WebAssembly, which is byte- rather than word-aligned (1.5% smaller than the defaults)."""
    data = open(path, 'rb').read()
    packed = bytearray(lzma.compress(data, format=lzma.FORMAT_ALONE, filters=[
        {'id': lzma.FILTER_LZMA1, 'preset': 9 | lzma.PRESET_EXTREME, 'lc': 4, 'lp': 0, 'pb': 0}]))
    packed[5:13] = struct.pack('<Q', len(data))
    return bytes(packed)


def unname_wasm(js, wasm_path, placeholder):
    """The Emscripten glue with the wasm file's name (which it would fetch without instantiateWasm)
    replaced by `placeholder`: once inlined there is no such file, and the glue names none."""
    name = os.path.basename(wasm_path)
    return js.replace('"' + name + '"', '"' + placeholder + '"').replace("'" + name + "'", "'" + placeholder + "'")
