"""gzip compression of a WebAssembly file for inlining (inline_offline.py, join_api.py)."""
import gzip, shutil, subprocess


def compress(path):
    """gzip of the file: zopfli's (about 4% smaller) when Debian's zopfli is installed, else zlib's -9."""
    if shutil.which('zopfli'):
        return subprocess.run(['zopfli', '-c', path], stdout=subprocess.PIPE, check=True).stdout
    return gzip.compress(open(path, 'rb').read(), compresslevel=9, mtime=0)
