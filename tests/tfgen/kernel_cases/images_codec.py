"""Image codecs: DecodeJpeg, DecodeAndCropJpeg, DecodePng, DecodeImage, DecodeBmp,
ExtractJpegShape, EncodePng, EncodeJpeg.

The images are made here: seeded smooth gradients with noise (so JPEG's chroma subsampling and
IDCT are exercised), encoded by TensorFlow itself (tf.io.encode_jpeg at several qualities,
progressive, without chroma subsampling, gray and RGB; tf.io.encode_png at 8 and 16 bits, 1 to 4
channels). PNG layouts TensorFlow does not write (palette with and without tRNS, 1/2/4-bit gray,
gray with a tRNS colour) and BMPs are written byte by byte below. Truncated and garbage inputs
record TensorFlow's error texts. Decoded pixels must match bit for bit (Rill decodes with the same
libjpeg-turbo IDCT and upsampling, and libpng). GIFs (written by images_gif.py, which has
DecodeGif's cases) are decoded here by DecodeImage (all frames, or the first), DecodePng and
DecodeJpeg (one frame; an animation is refused); DecodeBmp and DecodeAndCropJpeg refuse them."""
import struct
import zlib

import numpy as np
import tensorflow as tf

from kernel_cases import core
from kernel_cases import images_gif
from kernel_cases.core import const, ph, seed_of

# DecodePng/DecodeImage/EncodePng's uint16; kept out of core.ALL so no other suite tries it.
core.NP.setdefault("uint16", np.uint16)


def _s(value):
    return np.array(value, dtype=object)


def _image(h, w, c, seed, dtype=np.uint8):
    """A gradient in each channel plus seeded noise."""
    rs = np.random.RandomState(seed_of("images_codec", h, w, c, seed))
    top = 65535 if dtype == np.uint16 else 255
    y, x = np.mgrid[0:h, 0:w].astype(np.float64)
    planes = [x / max(w - 1, 1), y / max(h - 1, 1), (x + y) / max(h + w - 2, 1),
              1 - x / max(w - 1, 1)]
    base = np.stack(planes[:c], -1) * top * 0.8 + top * 0.1
    noise = rs.uniform(-0.12, 0.12, (h, w, c)) * top
    return np.clip(np.round(base + noise), 0, top).astype(dtype)


def _jpeg(image, **kw):
    return tf.io.encode_jpeg(image, **kw).numpy()


def _png(image, compression=-1):
    return tf.io.encode_png(image, compression=compression).numpy()


# --- hand-written PNGs and BMPs --------------------------------------------------------------

def _chunk(kind, data):
    return (struct.pack(">I", len(data)) + kind + data
            + struct.pack(">I", zlib.crc32(kind + data) & 0xffffffff))


def _png_raw(width, height, bit_depth, color_type, rows, extra=b""):
    """A PNG from packed rows (bytes each, filter type 0 added here) and extra chunks."""
    ihdr = struct.pack(">IIBBBBB", width, height, bit_depth, color_type, 0, 0, 0)
    raw = b"".join(b"\x00" + r for r in rows)
    return (b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", ihdr) + extra
            + _chunk(b"IDAT", zlib.compress(raw, 9)) + _chunk(b"IEND", b""))


def _pack(values, bits):
    """Packs a row of samples of `bits` (1, 2, 4) bits, most significant first."""
    out, acc, n = [], 0, 0
    for v in values:
        acc = (acc << bits) | int(v)
        n += bits
        if n == 8:
            out.append(acc)
            acc, n = 0, 0
    if n:
        out.append(acc << (8 - n))
    return bytes(out)


def _palette_png(trns):
    rs = np.random.RandomState(seed_of("palette", trns))
    palette = rs.randint(0, 256, (6, 3)).astype(np.uint8)
    idx = rs.randint(0, 6, (5, 7))
    extra = _chunk(b"PLTE", palette.tobytes())
    if trns:
        extra += _chunk(b"tRNS", bytes([0, 128, 255, 40]))  # entries 4, 5 opaque
    return _png_raw(7, 5, 8, 3, [bytes(r.astype(np.uint8)) for r in idx], extra)


def _gray_png(bits, trns=False):
    rs = np.random.RandomState(seed_of("gray", bits, trns))
    top = (1 << bits) - 1
    g = rs.randint(0, top + 1, (4, 9))
    extra = _chunk(b"tRNS", struct.pack(">H", int(g[0, 0]))) if trns else b""
    rows = [_pack(r, bits) if bits < 8 else bytes(r.astype(np.uint8)) for r in g]
    return _png_raw(9, 4, bits, 0, rows, extra)


def _rgb_trns_png():
    img = _image(4, 6, 3, 5)
    extra = _chunk(b"tRNS", struct.pack(">HHH", *[int(v) for v in img[1, 2]]))
    return _png_raw(6, 4, 8, 2, [r.tobytes() for r in img], extra)


def _bmp(image, top_down=False, bpp=None):
    """A BMP (BITMAPINFOHEADER, BGR(A) rows padded to 4 bytes) of a uint8 [h, w, c] image."""
    h, w, c = image.shape
    bpp = bpp or 8 * c
    px = image[..., ::-1] if c >= 3 else image
    if c == 4:
        px = image[..., [2, 1, 0, 3]]
    rows = [px[y].tobytes() for y in (range(h) if top_down else range(h - 1, -1, -1))]
    row_size = (c * w + 3) // 4 * 4
    data = b"".join(r + b"\0" * (row_size - len(r)) for r in rows)
    header = (b"BM" + struct.pack("<IHHI", 54 + len(data), 0, 0, 54)
              + struct.pack("<IiiHHIIiiII", 40, w, -h if top_down else h, 1, bpp, 0, len(data),
                            2835, 2835, 0, 0))
    return header + data


# --- the images ------------------------------------------------------------------------------

def _jpegs():
    rgb = _image(17, 23, 3, 1)
    big = _image(37, 45, 3, 2)
    gray = _image(19, 21, 1, 3)
    return [
        ("rgb_q95", _jpeg(rgb)),
        ("rgb_q50", _jpeg(rgb, quality=50)),
        ("rgb_q10", _jpeg(rgb, quality=10)),
        ("rgb_progressive", _jpeg(rgb, progressive=True)),
        ("rgb_444", _jpeg(rgb, chroma_downsampling=False)),
        ("rgb_optimized", _jpeg(rgb, optimize_size=True, quality=80)),
        ("big_q90", _jpeg(big, quality=90)),
        ("gray_q90", _jpeg(gray, quality=90)),
        ("gray_progressive", _jpeg(gray, progressive=True, quality=70)),
    ]


def _decode_jpeg(rec):
    op = "DecodeJpeg"
    jpegs = _jpegs()
    big = dict(jpegs)["big_q90"]
    rgb = dict(jpegs)["rgb_q95"]

    def gen(dt):
        def c(what, data, error=None, phrases=(), **attrs):
            rec.case(op, dt, what, lambda: tf.raw_ops.DecodeJpeg(
                contents=ph("contents", _s(data)), name="out", **attrs),
                error=error, phrases=phrases, case_dtype="")

        for name, data in jpegs:
            for ch in (0, 1, 3):
                c("%s_channels%d" % (name, ch), data, channels=ch)
        for name, data in (("big_q90", big), ("rgb_progressive", dict(jpegs)["rgb_progressive"]),
                           ("gray_q90", dict(jpegs)["gray_q90"])):
            for ratio in (2, 4, 8):
                c("%s_ratio%d" % (name, ratio), data, ratio=ratio)
            c("%s_no_fancy_upscaling" % name, data, fancy_upscaling=False)
            c("%s_accurate_dct" % name, data, dct_method="INTEGER_ACCURATE")
            c("%s_fast_dct" % name, data, dct_method="INTEGER_FAST")
        c("big_ratio2_accurate_no_fancy", big, ratio=2, dct_method="INTEGER_ACCURATE",
          fancy_upscaling=False)
        c("png_input", _png(_image(5, 6, 3, 4)))
        gifs = dict(images_gif.gifs())
        c("gif_input", gifs["gif_single"])
        c("gif_channels3", gifs["gif_single"], channels=3)
        c("gif_channels1_error", gifs["gif_single"], channels=1, error="INVALID_ARGUMENT",
          phrases=["channels must be 0 or 3 for GIF, got 1"])
        c("gif_animation_error", gifs["gif_animation"], error="INVALID_ARGUMENT",
          phrases=["Got 3 frames, but animated gifs can only be decoded by tf.io.decode_gif or "
                   "tf.io.decode_image"])

        def pipeline():
            # What an image-serving graph does first: a JPEG fed as a string, decoded, cast to
            # float and resized for the model.
            image = tf.raw_ops.DecodeJpeg(contents=ph("contents", _s(big)), channels=3,
                                          name="decode")
            batch = tf.expand_dims(tf.cast(image, tf.float32), 0)
            return tf.raw_ops.ResizeBilinear(images=batch, size=const("size", [24, 32]),
                                              half_pixel_centers=True, name="out")

        rec.case(op, dt, "pipeline_cast_resize_bilinear", pipeline, rtol=1e-6, atol=1e-4,
                 case_dtype="")
        bad = ["jpeg::Uncompress failed. Invalid JPEG data or crop window."]
        cut = big[:len(big) * 3 // 5]
        c("truncated_error", cut, error="INVALID_ARGUMENT", phrases=bad)
        c("truncated_recovered", cut, try_recover_truncated=True)
        # Rows come in 16-row iMCU groups: at 4/5 of the data 14 of 37 rows are read (the rest
        # black), at 9/10 30 of them.
        c("truncated_acceptable_fraction", big[:len(big) * 4 // 5], acceptable_fraction=0.3)
        c("truncated_acceptable_fraction_error", big[:len(big) * 4 // 5],
          acceptable_fraction=0.5, error="INVALID_ARGUMENT", phrases=bad)
        c("truncated_late_acceptable_fraction", big[:len(big) * 9 // 10],
          acceptable_fraction=0.5)
        c("truncated_header_error", big[:100], error="INVALID_ARGUMENT", phrases=bad)
        c("no_eoi_error", rgb[:-2], error="INVALID_ARGUMENT", phrases=bad)
        rs = np.random.RandomState(seed_of("garbage"))
        c("garbage_error", b"\xff\xd8\xff" + bytes(rs.randint(0, 256, 200).astype(np.uint8)),
          error="INVALID_ARGUMENT", phrases=bad)
        flipped = bytearray(big)
        for i in range(len(big) // 2, len(big) // 2 + 40):
            flipped[i] ^= 0x5a
        c("corrupt_scan", bytes(flipped))
        c("empty_error", b"", error="INVALID_ARGUMENT", phrases=["Input is empty."])
        c("channels4_error", rgb, channels=4, error="INVALID_ARGUMENT",
          phrases=["JPEG does not support 4 channels"])
        c("channels2_error", rgb, channels=2, error="INVALID_ARGUMENT",
          phrases=["`channels` must be 0, 1, 3 or 4 but got 2"])
        c("ratio3_error", rgb, ratio=3, error="INVALID_ARGUMENT",
          phrases=["ratio must be 1, 2, 4, or 8, got 3"])
        c("dct_method_error", rgb, dct_method="FLOAT", error="INVALID_ARGUMENT",
          phrases=["dct_method must be one of {'', 'INTEGER_FAST', 'INTEGER_ACCURATE'}"])
        c("vector_error", [rgb], error="INVALID_ARGUMENT",
          phrases=["`contents` must be scalar but got shape[1]"])
        c("bmp_error", _bmp(_image(2, 3, 3, 9)), error="INVALID_ARGUMENT",
          phrases=["Trying to decode BMP format using a wrong op. Use `decode_bmp` or "
                   "`decode_image` instead. Op used: DecodeJpeg"])
        c("unknown_format_error", b"hello", error="INVALID_ARGUMENT",
          phrases=["Unknown image file format."])

    rec.for_dtypes(op, ["uint8"], gen)


def _decode_and_crop_jpeg(rec):
    op = "DecodeAndCropJpeg"
    jpegs = dict(_jpegs())

    def gen(dt):
        def c(what, data, window, error=None, phrases=(), **attrs):
            rec.case(op, dt, what, lambda: tf.raw_ops.DecodeAndCropJpeg(
                contents=ph("contents", _s(data)),
                crop_window=ph("crop_window", np.asarray(window, np.int32)), name="out", **attrs),
                error=error, phrases=phrases, case_dtype="")

        for name in ("big_q90", "rgb_progressive", "gray_q90", "rgb_444"):
            data = jpegs[name]
            c(name + "_unaligned", data, [3, 5, 9, 11])
            c(name + "_full", data, [0, 0] + list(tf.io.extract_jpeg_shape(data).numpy()[:2]))
            c(name + "_last_pixel", data, [14, 18, 1, 1] if name != "big_q90" else [36, 44, 1, 1])
        big = jpegs["big_q90"]
        c("gray_output", big, [2, 17, 20, 9], channels=1)
        c("ratio2", big, [1, 2, 10, 15], ratio=2)
        c("accurate_no_fancy", big, [4, 9, 20, 30], dct_method="INTEGER_ACCURATE",
          fancy_upscaling=False)
        bad = ["jpeg::Uncompress failed. Invalid JPEG data or crop window."]
        c("window_outside_error", big, [30, 0, 10, 5], error="INVALID_ARGUMENT", phrases=bad)
        c("window_empty_error", big, [0, 0, 0, 5], error="INVALID_ARGUMENT", phrases=bad)
        c("window_negative_error", big, [-1, 0, 3, 5], error="INVALID_ARGUMENT", phrases=bad)
        c("window_size_error", big, [0, 0, 3], error="INVALID_ARGUMENT",
          phrases=["crop_size must have four elements [3]"])
        c("window_rank_error", big, [[0, 0, 3, 3]], error="INVALID_ARGUMENT",
          phrases=["crop_window must be 1-D, got shape [1,4]"])
        c("png_error", _png(_image(5, 6, 3, 4)), [0, 0, 2, 2], error="INVALID_ARGUMENT",
          phrases=["DecodeAndCropJpeg operation can run on JPEG only, but detected PNG."])
        c("gif_error", dict(images_gif.gifs())["gif_single"], [0, 0, 2, 2],
          error="INVALID_ARGUMENT",
          phrases=["DecodeAndCropJpeg operation can run on JPEG only, but detected GIF."])

    rec.for_dtypes(op, ["uint8"], gen)


def _pngs():
    out = []
    for ch in (1, 2, 3, 4):
        out.append(("png8_c%d" % ch, _png(_image(6, 9, ch, 10 + ch))))
        out.append(("png16_c%d" % ch, _png(_image(6, 9, ch, 20 + ch, np.uint16), compression=9)))
    out += [("palette", _palette_png(False)), ("palette_trns", _palette_png(True)),
            ("gray1", _gray_png(1)), ("gray2", _gray_png(2)), ("gray4", _gray_png(4)),
            ("gray8_trns", _gray_png(8, trns=True)), ("rgb_trns", _rgb_trns_png())]
    return out


def _decode_png(rec):
    op = "DecodePng"
    pngs = _pngs()
    some = dict(pngs)["png8_c3"]

    def gen(dt):
        def c(what, data, error=None, phrases=(), **attrs):
            rec.case(op, dt, what, lambda: tf.raw_ops.DecodePng(
                contents=ph("contents", _s(data)), dtype=dt, name="out", **attrs),
                error=error, phrases=phrases)

        for name, data in pngs:
            for ch in (0, 1, 3, 4):
                c("%s_channels%d" % (name, ch), data, channels=ch)
        c("channels2_error", some, channels=2, error="INVALID_ARGUMENT",
          phrases=["`channels` must be 0, 1, 3 or 4 but got 2"])
        c("jpeg_input", _jpegs()[0][1])
        gifs = dict(images_gif.gifs())
        c("gif_input", gifs["gif_single"])
        c("gif_animation_error", gifs["gif_animation"], error="INVALID_ARGUMENT",
          phrases=["Got 3 frames, but animated gifs can only be decoded by tf.io.decode_gif or "
                   "tf.io.decode_image"])
        c("truncated_error", some[:-20], error="INVALID_ARGUMENT",
          phrases=["Invalid PNG data, size %d" % (len(some) - 20)])
        c("header_only_error", some[:20], error="INVALID_ARGUMENT",
          phrases=["Invalid PNG. Failed to initialize decoder."])
        bad_crc = bytearray(some)
        bad_crc[20] ^= 1
        c("bad_ihdr_crc_error", bytes(bad_crc), error="INVALID_ARGUMENT",
          phrases=["Invalid PNG. Failed to initialize decoder."])
        c("bmp_error", _bmp(_image(2, 3, 3, 9)), error="INVALID_ARGUMENT",
          phrases=["Trying to decode BMP format using a wrong op."])

    rec.for_dtypes(op, ["uint8", "uint16"], gen)


def _bmps():
    return [("bmp24", _bmp(_image(5, 7, 3, 30))),
            ("bmp24_top_down", _bmp(_image(5, 6, 3, 31), top_down=True)),
            ("bmp32", _bmp(_image(4, 3, 4, 32))),
            ("bmp8", _bmp(_image(3, 5, 1, 33)))]


def _decode_image(rec):
    op = "DecodeImage"
    jpegs = dict(_jpegs())
    pngs = dict(_pngs())
    inputs = ([("jpeg_" + n, jpegs[n]) for n in ("rgb_q95", "gray_q90", "rgb_progressive")]
              + [(n, pngs[n]) for n in ("png8_c3", "png16_c4", "png8_c2", "palette_trns")]
              + _bmps())

    def gen(dt):
        def c(what, data, error=None, phrases=(), **attrs):
            rec.case(op, dt, what, lambda: tf.raw_ops.DecodeImage(
                contents=ph("contents", _s(data)), dtype=dt, name="out", **attrs),
                error=error, phrases=phrases)

        for name, data in inputs:
            if name == "bmp24_top_down" and dt != "uint8":
                # TensorFlow sizes its uint8 buffer with the negative height and aborts
                # (std::bad_alloc); Rill decodes it (decode_image_ops_test).
                continue
            for ch in (0, 1, 3, 4):
                is_jpeg, is_bmp = name.startswith("jpeg"), name.startswith("bmp")
                if (is_jpeg and ch == 4) or (is_bmp and ch == 1):
                    continue
                c("%s_channels%d" % (name, ch), data, channels=ch)
            c(name + "_no_expand", data, expand_animations=False)
        c("jpeg_channels4_error", jpegs["rgb_q95"], channels=4, error="INVALID_ARGUMENT",
          phrases=["JPEG does not support 4 channels"])
        c("bmp_channels1_error", _bmps()[0][1], channels=1, error="INVALID_ARGUMENT",
          phrases=["`channels` must be 0, 3 or 4 for BMP, but got 1"])
        c("unknown_format_error", b"\x00\x01\x02\x03", error="INVALID_ARGUMENT",
          phrases=["Unknown image file format. One of JPEG, JPEG XL, PNG, GIF, BMP, WebP "
                   "required."])
        c("empty_error", b"", error="INVALID_ARGUMENT", phrases=["Input is empty."])
        for name, data in images_gif.gifs():
            for ch in (0, 3):
                c("%s_channels%d" % (name, ch), data, channels=ch)
            c(name + "_no_expand", data, expand_animations=False)
        for ch in (1, 4):
            c("gif_channels%d_error" % ch, images_gif.gifs()[0][1], channels=ch,
              error="INVALID_ARGUMENT", phrases=["channels must be 0 or 3 for GIF, got %d" % ch])

    rec.for_dtypes(op, ["uint8", "uint16", "float32"], gen)


def _decode_bmp(rec):
    op = "DecodeBmp"

    def gen(dt):
        def c(what, data, error=None, phrases=(), **attrs):
            rec.case(op, dt, what, lambda: tf.raw_ops.DecodeBmp(
                contents=ph("contents", _s(data)), name="out", **attrs),
                error=error, phrases=phrases, case_dtype="")

        for name, data in _bmps():
            for ch in (0, 3, 4):
                c("%s_channels%d" % (name, ch), data, channels=ch)
        good = _bmps()[0][1]
        c("channels1_error", good, channels=1, error="INVALID_ARGUMENT",
          phrases=["`channels` must be 0, 3 or 4 for BMP, but got 1"])
        c("short_error", good[:30], error="INVALID_ARGUMENT",
          phrases=["Incomplete bmp content, requires at least 32 bytes to find the header size, "
                   "width, height, and bpp, got 30 bytes"])
        c("size_mismatch_error", good[:-3], error="INVALID_ARGUMENT",
          phrases=["Input size should match (header_size + row_size * abs_height) but they "
                   "differ by -3"])
        bpp16 = good[:28] + struct.pack("<H", 16) + good[30:]
        c("bpp16_error", bpp16, error="INVALID_ARGUMENT",
          phrases=["Number of channels inherent in the image must be 1, 3 or 4, was 2"])
        huge = good[:18] + struct.pack("<ii", 100000, 100000) + good[26:]
        c("huge_error", huge, error="INVALID_ARGUMENT",
          phrases=["Total possible pixel bytes must be less than 2^30"])
        zero_h = good[:22] + struct.pack("<i", 0) + good[26:]
        c("zero_height_error", zero_h, error="INVALID_ARGUMENT", phrases=["Height must be nonzero"])
        neg_w = good[:18] + struct.pack("<i", -7) + good[22:]
        c("negative_width_error", neg_w, error="INVALID_ARGUMENT",
          phrases=["Width must be positive"])
        c("jpeg_error", _jpegs()[0][1], error="INVALID_ARGUMENT",
          phrases=["Trying to decode JPEG format using DecodeBmp op. Use `decode_jpeg` or "
                   "`decode_image` instead."])
        c("png_error", _png(_image(5, 6, 3, 4)), error="INVALID_ARGUMENT",
          phrases=["Trying to decode PNG format using DecodeBmp op. Use `decode_png` or "
                   "`decode_image` instead."])
        c("gif_error", dict(images_gif.gifs())["gif_animation"], error="INVALID_ARGUMENT",
          phrases=["Trying to decode GIF format using DecodeBmp op. Use `decode_gif` or "
                   "`decode_image` instead."])

    rec.for_dtypes(op, ["uint8"], gen)


def _extract_jpeg_shape(rec):
    op = "ExtractJpegShape"
    jpegs = _jpegs()

    def gen(dt):
        def c(what, data, error=None, phrases=()):
            rec.case(op, dt, what, lambda: tf.raw_ops.ExtractJpegShape(
                contents=ph("contents", _s(data)), output_type=dt, name="out"),
                error=error, phrases=phrases)

        for name, data in jpegs:
            c(name, data)
        c("not_jpeg_error", b"xx", error="INVALID_ARGUMENT", phrases=["Invalid JPEG data, size 2"])
        c("empty_error", b"", error="INVALID_ARGUMENT", phrases=["Invalid JPEG data, size 0"])
        c("header_cut_error", jpegs[0][1][:30], error="INVALID_ARGUMENT",
          phrases=["Invalid JPEG data, size 30"])

    rec.for_dtypes(op, ["int32", "int64"], gen)


def _encode_png(rec):
    op = "EncodePng"

    def gen(dt):
        npdt = np.uint16 if dt == "uint16" else np.uint8

        def c(what, image, error=None, phrases=(), **attrs):
            rec.case(op, dt, what, lambda: tf.raw_ops.EncodePng(
                image=ph("image", image), name="out", **attrs), error=error, phrases=phrases)

        for ch in (1, 2, 3, 4):
            c("channels%d" % ch, _image(7, 5, ch, 40 + ch, npdt))
        for level in (0, 1, 6, 9):
            c("compression%d" % level, _image(9, 8, 3, 50, npdt), compression=level)
        c("batch", np.stack([_image(4, 3, 3, 60 + i, npdt) for i in range(6)]).reshape(
            2, 3, 4, 3, 3))
        c("compression_error", _image(2, 2, 3, 1, npdt), compression=10,
          error="INVALID_ARGUMENT", phrases=["compression should be in [-1,9], got 10"])
        c("channels5_error", np.zeros((2, 2, 5), npdt), error="INVALID_ARGUMENT",
          phrases=["image must have 1, 2, 3, or 4 channels, got 5"])
        c("empty_error", np.zeros((0, 2, 3), npdt), error="INTERNAL",
          phrases=["PNG encoding failed at the following flattened batch indices: 0"])

    rec.for_dtypes(op, ["uint8", "uint16"], gen)


def _encode_jpeg(rec):
    op = "EncodeJpeg"

    def gen(dt):
        def c(what, image, error=None, phrases=(), **attrs):
            rec.case(op, dt, what, lambda: tf.raw_ops.EncodeJpeg(
                image=ph("image", image), name="out", **attrs), error=error, phrases=phrases,
                case_dtype="")

        rgb = _image(17, 23, 3, 70)
        gray = _image(9, 12, 1, 71)
        c("rgb_default", rgb)
        c("gray_default", gray)
        for q in (0, 10, 50, 100):
            c("quality%d" % q, rgb, quality=q)
        c("progressive", rgb, progressive=True)
        c("optimize_size", rgb, optimize_size=True)
        c("no_chroma_downsampling", rgb, chroma_downsampling=False)
        c("density_cm", rgb, density_unit="cm", x_density=72, y_density=150)
        c("xmp", gray, xmp_metadata="<x:xmpmeta xmlns:x='adobe:ns:meta/'/>")
        c("format_rgb", rgb, format="rgb")
        c("format_grayscale", gray, format="grayscale")
        c("format_error", rgb, format="grayscale", error="INVALID_ARGUMENT",
          phrases=["format grayscale expects 1 channels, got [17,23,3]"])
        c("channels2_error", np.zeros((2, 2, 2), np.uint8), error="INVALID_ARGUMENT",
          phrases=["image must have 1 or 3 channels, got [2,2,2]"])
        c("quality_error", rgb, quality=101, error="INVALID_ARGUMENT",
          phrases=["quality must be in [0,100], got 101"])
        c("empty_error", np.zeros((0, 2, 3), np.uint8), error="INTERNAL",
          phrases=["JPEG encoding failed"])

    rec.for_dtypes(op, ["uint8"], gen)


def build_all(rec, emit):
    for build, op in ((_decode_jpeg, "DecodeJpeg"), (_decode_and_crop_jpeg, "DecodeAndCropJpeg"),
                      (_decode_png, "DecodePng"), (_decode_image, "DecodeImage"),
                      (_decode_bmp, "DecodeBmp"), (_extract_jpeg_shape, "ExtractJpegShape"),
                      (_encode_png, "EncodePng"), (_encode_jpeg, "EncodeJpeg")):
        build(rec)
        emit(op)
