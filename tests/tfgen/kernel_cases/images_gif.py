"""DecodeGif, and GIFs written byte by byte for it and for the other decoders (images_codec.py).

The writer below makes GIF89a files: a logical screen with an optional global colour table,
graphic control extensions (transparency), other extensions (Netscape looping, comments), images
with optional local colour tables and interlaced rows, their pixels LZW-compressed here (as
giflib's encoder grows the code size and clears a full table) or given as raw LZW bytes for
defective streams. TensorFlow decodes them with giflib; Rill with kernels/image/gif_codec.cc.
Cases: one frame of 2 to 256 colours (12-bit codes and a full table), code size 1, interlaced
images, local tables, animations painting over the previous frame with transparent pixels, frames
smaller than or off the canvas (TensorFlow's canvas is the largest frame), extensions, a missing
trailer, a cut or defective last frame (dropped, the others kept), damaged and random LZW data, and
TensorFlow's errors for truncated, garbage and inconsistent files."""
import struct

import numpy as np
import tensorflow as tf

from kernel_cases.core import ph, seed_of


def _s(value):
    return np.array(value, dtype=object)


# --- the writer ------------------------------------------------------------------------------

def lzw(indices, min_size):
    """LZW codes for `indices` with giflib's encoder rules, packed LSB first."""
    clear, eoi = 1 << min_size, (1 << min_size) + 1
    out = bytearray()
    state = {"acc": 0, "n": 0, "bits": min_size + 1, "running": clear + 2}

    def emit(code):
        state["acc"] |= code << state["n"]
        state["n"] += state["bits"]
        while state["n"] >= 8:
            out.append(state["acc"] & 255)
            state["acc"] >>= 8
            state["n"] -= 8
        # The decoder grows the code size after each code it reads, except that a clear code
        # resets it.
        if code != clear and state["running"] >= (1 << state["bits"]) and state["bits"] < 12:
            state["bits"] += 1

    def reset():
        state["bits"], state["running"] = min_size + 1, clear + 2
        return {(i,): i for i in range(clear)}

    table = reset()
    emit(clear)
    w = None
    for k in indices:
        if w is None:
            w = (k,)
            continue
        if w + (k,) in table:
            w = w + (k,)
            continue
        emit(table[w])
        if state["running"] >= 4095:
            emit(clear)
            table = reset()
        else:
            table[w + (k,)] = state["running"]
            state["running"] += 1
        w = (k,)
    if w is not None:
        emit(table[w])
    emit(eoi)
    if state["n"]:
        out.append(state["acc"] & 255)
    return bytes(out)


def sub_blocks(data, size=255):
    out = bytearray()
    for i in range(0, len(data), size):
        chunk = data[i:i + size]
        out.append(len(chunk))
        out += chunk
    return bytes(out) + b"\x00"


def color_table(colors, size_bits):
    n = 1 << (size_bits + 1)
    colors = list(colors) + [(0, 0, 0)] * (n - len(colors))
    return b"".join(bytes(c) for c in colors[:n])


def gif_file(width, height, records, gct=None, gct_bits=0, trailer=True):
    packed = (0x80 | 0x70 | gct_bits) if gct is not None else 0
    out = b"GIF89a" + struct.pack("<HHBBB", width, height, packed, 0, 0)
    if gct is not None:
        out += color_table(gct, gct_bits)
    return out + b"".join(records) + (b";" if trailer else b"")


def control(transparent=None, flag=None, disposal=0, delay=10):
    """A graphic control extension; `flag` overrides the transparency flag."""
    flag = (transparent is not None) if flag is None else flag
    packed = (disposal << 2) | (1 if flag else 0)
    return b"\x21\xf9\x04" + struct.pack("<BHB", packed, delay, transparent or 0) + b"\x00"


def extension(code, blocks):
    return b"\x21" + bytes([code]) + b"".join(bytes([len(b)]) + b for b in blocks) + b"\x00"


def image(left, top, width, height, pixels, min_size=None, lct=None, lct_bits=0,
          interlace=False, data=None, block_size=255):
    """An image descriptor and its data: `pixels` (row-major indices) compressed here, or raw
    LZW bytes in `data` (with `min_size`)."""
    if min_size is None:
        min_size = max(2, int(max(pixels)).bit_length()) if pixels else 2
    packed = 0x40 if interlace else 0
    if lct is not None:
        packed |= 0x80 | lct_bits
    out = b"\x2c" + struct.pack("<HHHHB", left, top, width, height, packed)
    if lct is not None:
        out += color_table(lct, lct_bits)
    if data is None:
        rows = [list(pixels[r * width:(r + 1) * width]) for r in range(height)]
        if interlace:
            order = (list(range(0, height, 8)) + list(range(4, height, 8))
                     + list(range(2, height, 4)) + list(range(1, height, 2)))
            rows = [rows[r] for r in order]
        data = lzw([p for r in rows for p in r], min_size)
    return out + bytes([min_size]) + sub_blocks(data, block_size)


def palette(n, seed):
    rs = np.random.RandomState(seed_of("gif_palette", n, seed))
    return [tuple(int(v) for v in rs.randint(0, 256, 3)) for _ in range(n)]


def pixels(width, height, colors, seed, smooth=False):
    if smooth:  # long runs, so LZW strings grow long
        return [((x // 5) + (y // 3)) % colors for y in range(height) for x in range(width)]
    rs = np.random.RandomState(seed_of("gif_pixels", width, height, colors, seed))
    return [int(v) for v in rs.randint(0, colors, width * height)]


# --- the files -------------------------------------------------------------------------------

def single(width=5, height=4, colors=4, bits=1, seed=0):
    return gif_file(width, height, [image(0, 0, width, height, pixels(width, height, colors, seed))],
                    gct=palette(colors, seed), gct_bits=bits)


def animation():
    """Three frames: a full one, a smaller one at an offset with a transparent index, and one with
    its own colour table whose transparent index is 0."""
    pal = palette(8, 1)
    f0 = image(0, 0, 6, 5, pixels(6, 5, 8, 10))
    f1 = control(transparent=2) + image(2, 1, 3, 3, [2, 5, 2, 7, 2, 1, 2, 2, 3])
    f2 = control(transparent=0, delay=20) + image(
        0, 3, 6, 2, [0, 1, 0, 2, 0, 3, 3, 0, 1, 0, 2, 0], lct=palette(4, 2), lct_bits=1)
    return gif_file(6, 5, [f0, f1, f2], gct=pal, gct_bits=2)


def gifs():
    """Named GIFs every decoder case set uses."""
    return [("gif_single", single()), ("gif_animation", animation())]


# --- DecodeGif ---------------------------------------------------------------------------------

def _decode_gif(rec):
    op = "DecodeGif"

    def gen(dt):
        def c(what, data, error=None, phrases=()):
            rec.case(op, dt, what, lambda: tf.raw_ops.DecodeGif(
                contents=ph("contents", _s(data)), name="out"),
                error=error, phrases=phrases, case_dtype="")

        for name, data in gifs():
            c(name[len("gif_"):], data)
        c("two_colors", single(7, 3, 2, 0, seed=1))
        c("sixteen_colors", single(33, 17, 16, 3, seed=2))
        c("256_colors_full_table", single(100, 60, 256, 7, seed=3))
        c("256_colors_small_blocks", gif_file(
            40, 30, [image(0, 0, 40, 30, pixels(40, 30, 256, 4), block_size=17)],
            gct=palette(256, 4), gct_bits=7))
        c("smooth_long_strings", gif_file(
            64, 48, [image(0, 0, 64, 48, pixels(64, 48, 16, 0, smooth=True))],
            gct=palette(16, 5), gct_bits=3))
        c("code_size1", gif_file(
            6, 4, [image(0, 0, 6, 4, pixels(6, 4, 2, 6), min_size=1)], gct=palette(2, 6)))
        c("code_size8_few_colors", gif_file(
            5, 4, [image(0, 0, 5, 4, pixels(5, 4, 3, 7), min_size=8)],
            gct=palette(256, 7), gct_bits=7))
        for w, h in [(4, 5), (3, 17), (31, 40)]:
            c("interlaced_%dx%d" % (w, h), gif_file(
                w, h, [image(0, 0, w, h, pixels(w, h, 16, 8), interlace=True)],
                gct=palette(16, 8), gct_bits=3))
        c("local_table_only", gif_file(
            5, 3, [image(0, 0, 5, 3, pixels(5, 3, 8, 9), lct=palette(8, 9), lct_bits=2)]))
        c("local_table_over_global", gif_file(
            5, 3, [image(0, 0, 5, 3, pixels(5, 3, 4, 10), lct=palette(4, 10), lct_bits=1)],
            gct=palette(4, 11), gct_bits=1))
        c("first_frame_transparent", gif_file(
            4, 3, [control(transparent=1) + image(0, 0, 4, 3, pixels(4, 3, 4, 12))],
            gct=palette(4, 12), gct_bits=1))
        c("transparent_flag_off", gif_file(
            4, 3, [control(transparent=1, flag=False) + image(0, 0, 4, 3, pixels(4, 3, 4, 12))],
            gct=palette(4, 12), gct_bits=1))
        c("first_frame_smaller_than_canvas", gif_file(
            8, 6, [image(1, 1, 3, 2, pixels(3, 2, 4, 13)), image(0, 0, 5, 4, pixels(5, 4, 4, 14))],
            gct=palette(4, 13), gct_bits=1))
        c("frame_off_the_largest_frame", gif_file(
            8, 8, [image(2, 2, 4, 4, pixels(4, 4, 4, 15))], gct=palette(4, 15), gct_bits=1))
        c("frame_outside_canvas", gif_file(
            4, 4, [image(0, 0, 4, 4, pixels(4, 4, 4, 16)), image(6, 6, 2, 2, [1, 2, 3, 1])],
            gct=palette(4, 16), gct_bits=1))
        c("extensions", gif_file(
            4, 3, [extension(0xff, [b"NETSCAPE2.0", b"\x01\x00\x00"]),
                   extension(0xfe, [b"a comment", b"in two blocks"]),
                   control(transparent=3) + extension(0xfe, [b"between"])
                   + image(0, 0, 4, 3, pixels(4, 3, 4, 17)),
                   control(transparent=0) + image(1, 0, 2, 2, [0, 1, 2, 0]),
                   extension(0xfe, [b"after the last image"])],
            gct=palette(4, 17), gct_bits=1))
        c("two_control_blocks_first_counts", gif_file(
            4, 3, [image(0, 0, 4, 3, pixels(4, 3, 4, 18)),
                   control(transparent=1) + control(transparent=2)
                   + image(0, 0, 4, 3, pixels(4, 3, 4, 19))],
            gct=palette(4, 18), gct_bits=1))
        c("gif87a", b"GIF87a" + single()[6:])
        c("data_after_trailer", single() + b"trailing bytes")
        c("missing_trailer", single()[:-1])
        # A cut in the last frame (its colour table, its data, or only its empty block after
        # the end code): TensorFlow drops that frame and keeps the others.
        anim = animation()
        c("truncated_last_frame_table", anim[:-20])
        c("truncated_last_frame_data", anim[:-4])
        c("truncated_last_block", anim[:-2])
        pal, first = palette(4, 25), image(0, 0, 4, 3, pixels(4, 3, 4, 25))
        c("defective_second_frame_dropped", gif_file(4, 3, [
            first, control(transparent=1) + image(0, 0, 4, 3, [], min_size=2, data=b"\x3c\x00")],
            gct=pal, gct_bits=1))
        c("zero_width_second_frame_dropped", gif_file(4, 3, [
            first, image(0, 0, 0, 3, [], data=lzw([], 2))], gct=pal, gct_bits=1))
        c("early_end_second_frame_dropped", gif_file(4, 3, [
            first, image(0, 0, 4, 3, [], min_size=2, data=lzw([1, 2], 2))], gct=pal, gct_bits=1))
        c("wrong_record_after_frame", gif_file(4, 3, [first, b"?"], gct=pal, gct_bits=1))
        c("truncated_extension_after_frame", gif_file(4, 3, [first, b"\x21\xfe\x05ab"],
                                                      gct=pal, gct_bits=1, trailer=False))
        c("png_input", tf.io.encode_png(np.arange(24, dtype=np.uint8).reshape(2, 3, 4)).numpy())
        c("png16_gray_input", tf.io.encode_png(
            (np.arange(6, dtype=np.uint16).reshape(2, 3, 1) * 10007)).numpy())
        c("jpeg_gray_input", tf.io.encode_jpeg(
            np.full([8, 8, 1], 100, np.uint8)).numpy())

        err = dict(error="INVALID_ARGUMENT")
        one = single()
        c("header_only_error", b"GIF89a", phrases=[
            "Invalid GIF data (size 6), failed to open gif file: No screen descriptor detected"],
          **err)
        c("signature_only_error", b"GIF8", phrases=[
            "Invalid GIF data (size 4), failed to open gif file: Failed to read from given "
            "file"], **err)
        c("truncated_color_table_error", one[:20], phrases=[
            "failed to open gif file: No screen descriptor detected"], **err)
        c("no_image_error", gif_file(4, 3, [], gct=palette(4, 0), gct_bits=1), phrases=[
            "failed to slurp gif file: No Image Descriptor detected"], **err)
        c("wrong_record_error", one[:25] + b"?" + one[25:], phrases=[
            "failed to slurp gif file: Wrong record type detected"], **err)
        c("truncated_lzw_data_error", one[:-5], phrases=[
            "failed to slurp gif file: Failed to read from given file"], **err)
        c("truncated_last_block_error", one[:-2], phrases=[
            "failed to slurp gif file: Failed to read from given file"], **err)
        c("truncated_descriptor_error", one[:30], phrases=[
            "failed to slurp gif file: Failed to read from given file"], **err)
        c("missing_color_map_error", gif_file(4, 3, [image(0, 0, 4, 3, pixels(4, 3, 4, 20))]),
          phrases=["missing color map for frame 0"], **err)
        c("missing_color_map_second_frame_error", gif_file(4, 3, [
            image(0, 0, 4, 3, pixels(4, 3, 4, 21), lct=palette(4, 21), lct_bits=1),
            image(0, 0, 4, 3, pixels(4, 3, 4, 22))]),
          phrases=["missing color map for frame 1"], **err)
        c("index_outside_color_map_error", gif_file(
            4, 3, [image(0, 0, 4, 3, [0, 1, 2, 3] * 3)], gct=palette(2, 23), gct_bits=0),
          phrases=["found color index 2 outside of color map range 2"], **err)
        c("zero_width_error", gif_file(4, 3, [image(0, 0, 0, 3, [], data=lzw([], 2))],
                                       gct=palette(4, 0), gct_bits=1),
          phrases=["failed to slurp gif file: Unknown error"], **err)
        c("code_size9_error", gif_file(4, 3, [image(0, 0, 4, 3, [], min_size=9, data=b"\x00")],
                                       gct=palette(4, 0), gct_bits=1),
          phrases=["failed to slurp gif file: Failed to read from given file"], **err)
        c("empty_extension_error", gif_file(
            4, 3, [b"\x21\xf9\x00" + image(0, 0, 4, 3, pixels(4, 3, 4, 24))],
            gct=palette(4, 24), gct_bits=1),
          phrases=["failed to slurp gif file: Failed to read from given file"], **err)
        # LZW streams: the end code before the last pixel; a first code past the table; an
        # empty data block where codes should be.
        early_end = lzw([1, 2, 3], 2)
        c("early_end_code_error", gif_file(4, 3, [image(0, 0, 4, 3, [], min_size=2,
                                                        data=early_end)],
                                           gct=palette(4, 0), gct_bits=1),
          phrases=["failed to slurp gif file: Image EOF detected before image complete"], **err)
        c("undefined_code_error", gif_file(4, 3, [image(0, 0, 4, 3, [], min_size=2,
                                                        data=b"\x3c\x00")],
                                           gct=palette(4, 0), gct_bits=1),
          phrases=["failed to slurp gif file: Image is defective, decoding aborted"], **err)
        c("empty_data_block_error", gif_file(4, 3, [
            b"\x2c" + struct.pack("<HHHHB", 0, 0, 4, 3, 0) + b"\x02\x00"],
            gct=palette(4, 0), gct_bits=1),
          phrases=["failed to slurp gif file: Image is defective, decoding aborted"], **err)
        c("bmp_error", b"BM" + b"\0" * 60, phrases=[
            "Trying to decode BMP format using a wrong op. Use `decode_bmp` or `decode_image` "
            "instead. Op used: DecodeGif"], **err)
        c("unknown_format_error", b"GIF7 is not a GIF", phrases=[
            "Unknown image file format. One of JPEG, JPEG XL, PNG, GIF, BMP, WebP required."],
          **err)
        c("empty_error", b"", phrases=["Input is empty."], **err)
        rec.case(op, dt, "vector_contents_error", lambda: tf.raw_ops.DecodeGif(
            contents=ph("contents", _s([one])), name="out"), error="INVALID_ARGUMENT",
            phrases=["`contents` must be scalar but got shape[1]"], case_dtype="")
        _garbage_streams(rec, op, dt)

    rec.for_dtypes(op, ["uint8"], gen)


def _garbage_streams(rec, op, dt):
    """Damaged LZW data: a valid stream with seeded bytes replaced, and random bytes. Whatever
    giflib makes of them (pixels, a colour index past the table, a defective stream) is
    recorded, its error text as the phrase."""
    w, h, colors = 16, 12, 16
    valid = lzw(pixels(w, h, colors, 40), 4)
    streams = []
    for i in range(10):
        rs = np.random.RandomState(seed_of("gif_damaged", i))
        data = bytearray(valid)
        for at in rs.randint(2, len(data), 1 + i % 3):
            data[at] = rs.randint(0, 256)
        streams.append(("damaged_lzw_%d" % i, 4, bytes(data)))
    for i in range(3):
        rs = np.random.RandomState(seed_of("gif_garbage", i))
        streams.append(("random_lzw_%d" % i, 2 + i,
                        bytes(rs.randint(0, 256, 60 + 30 * i).astype(np.uint8))))
    for name, min_size, data in streams:
        g = gif_file(w, h, [image(0, 0, w, h, [], min_size=min_size, data=data)],
                     gct=palette(colors, 41), gct_bits=3)
        error, phrases = None, ()
        try:
            tf.raw_ops.DecodeGif(contents=g)
        except tf.errors.InvalidArgumentError as e:
            error = "INVALID_ARGUMENT"
            phrases = [e.message.split("}} ")[-1].split(" [Op:")[0]]
        rec.case(op, dt, name, lambda g=g: tf.raw_ops.DecodeGif(
            contents=ph("contents", _s(g)), name="out"), error=error, phrases=phrases,
            case_dtype="")


def build_all(rec, emit):
    _decode_gif(rec)
    emit("DecodeGif")
