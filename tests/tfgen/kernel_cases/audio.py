"""The speech front end of tf.raw_ops: DecodeWav / EncodeWav (16-bit PCM WAV files),
AudioSpectrogram (Hann-windowed power spectra of frames) and Mfcc (mel filterbank, log, DCT), as
the speech-commands models compute features."""
import struct

import numpy as np
import tensorflow as tf

from kernel_cases.core import ph


def _wave(shape, seed):
    rs = np.random.RandomState(seed)
    t = np.arange(shape[0], dtype=np.float64)[:, None] / 16000.0
    tone = 0.3 * np.sin(2 * np.pi * 440.0 * t) + 0.2 * np.sin(2 * np.pi * 1250.0 * t)
    return (tone + rs.uniform(-0.2, 0.2, shape)).astype(np.float32)


def audio_spectrogram(rec):
    op = "AudioSpectrogram"

    def gen(dt):
        def c(what, x, window, stride, squared=False, error=None, phrases=()):
            rec.case(op, dt, what, lambda: tf.raw_ops.AudioSpectrogram(
                input=ph("input", x), window_size=window, stride=stride,
                magnitude_squared=squared, name="out"), rtol=2e-6, atol=1e-6, error=error,
                phrases=phrases, case_dtype="")

        w = _wave([1000, 2], 1)
        c("power_of_two_window", w, 256, 128, squared=True)
        c("magnitude", w, 256, 128)
        c("padded_window", w, 200, 100)
        c("stride_past_window", w, 100, 150, squared=True)
        c("one_frame", w[:300], 300, 1, squared=True)
        c("shorter_than_window", w[:50], 64, 32)
        c("mono_small", _wave([64, 1], 2), 16, 8, squared=True)
        c("silence", np.zeros([128, 1], np.float32), 32, 16, squared=True)
        c("rank_error", w[:, 0], 16, 8, error="INVALID_ARGUMENT",
          phrases=["input must be 2-dimensional"])
    rec.for_dtypes(op, ["float32"], gen)


def mfcc(rec):
    op = "Mfcc"

    def gen(dt):
        def c(what, spec, rate, upper=4000.0, lower=20.0, channels=40, coefficients=13,
              error=None, phrases=()):
            rec.case(op, dt, what, lambda: tf.raw_ops.Mfcc(
                spectrogram=ph("spectrogram", spec), sample_rate=ph("sample_rate", rate),
                upper_frequency_limit=upper, lower_frequency_limit=lower,
                filterbank_channel_count=channels, dct_coefficient_count=coefficients,
                name="out"), rtol=1e-5, atol=2e-5, error=error, phrases=phrases,
                case_dtype="")

        spec = tf.raw_ops.AudioSpectrogram(input=_wave([4000, 2], 3), window_size=480, stride=160,
                                           magnitude_squared=True).numpy()
        r = np.int32(16000)
        c("speech_commands", spec, r)
        c("wide_band", spec, r, upper=7600.0, lower=60.0, channels=26, coefficients=26)
        c("few_coefficients", spec[:1], r, channels=10, coefficients=3)
        c("upper_past_nyquist", spec[:1, :3], np.int32(8000), upper=5000.0)
        c("silent_frames", np.zeros([1, 2, 65], np.float32), r, channels=20)
        c("small_bins", np.abs(spec[:, :4, :33]), np.int32(8000), upper=3900.0, channels=12,
          coefficients=12)
        c("rank_error", spec[0], r, error="INVALID_ARGUMENT",
          phrases=["spectrogram must be 3-dimensional"])
        c("rate_not_scalar_error", spec, np.array([16000], np.int32), error="INVALID_ARGUMENT",
          phrases=["Input sample_rate should be a scalar tensor"])
        c("init_error", spec, r, upper=10.0, error="INVALID_ARGUMENT",
          phrases=["Mfcc initialization failed for channel count 257, sample rate 16000 and "
                   "filterbank_channel_count 40"])
        c("coefficients_error", spec, r, channels=8, coefficients=9, error="INVALID_ARGUMENT",
          phrases=["Mfcc initialization failed"])

    rec.for_dtypes(op, ["float32"], gen)



def _wav_file(audio, rate=16000):
    return tf.audio.encode_wav(audio, rate).numpy()


def _patched(data, offset, fmt, value):
    b = bytearray(data)
    b[offset:offset + struct.calcsize(fmt)] = struct.pack(fmt, value)
    return bytes(b)


def decode_wav(rec):
    op = "DecodeWav"

    def gen(dt):
        def c(what, contents, error=None, phrases=(), **attrs):
            rec.case(op, dt, what, lambda: tf.raw_ops.DecodeWav(
                contents=ph("contents", np.array(contents, dtype=object)), name="out", **attrs),
                error=error, phrases=phrases, case_dtype="")

        stereo = _wav_file(np.clip(_wave([300, 2], 4) * 1.5, -1, 1))
        mono = _wav_file(_wave([160, 1], 5), 8000)
        c("stereo", stereo)
        c("mono", mono)
        c("fewer_channels", stereo, desired_channels=1)
        c("more_channels", mono, desired_channels=3)
        c("padded", mono, desired_samples=200)
        c("truncated", stereo, desired_samples=16, desired_channels=2)
        c("no_samples", _wav_file(np.zeros([0, 1], np.float32)))
        c("extra_chunks", mono[:36] + b"LIST" + struct.pack("<I", 4) + b"abcd" + mono[36:] +
          b"junk" + struct.pack("<I", 2) + b"zz")
        c("format_chunk_18", mono[:16] + struct.pack("<I", 18) + mono[20:36] + b"\0\0" + mono[36:])
        c("riff_error", b"RIFX" + mono[4:], error="INVALID_ARGUMENT",
          phrases=["Header mismatch: Expected RIFF but found RIFX"])
        c("wave_error", mono[:8] + b"WAVX" + mono[12:], error="INVALID_ARGUMENT",
          phrases=["Header mismatch: Expected WAVE but found WAVX"])
        c("short_error", mono[:30], error="INVALID_ARGUMENT",
          phrases=["Data too short when trying to read string"])
        c("truncated_data_error", mono[:60], error="INVALID_ARGUMENT",
          phrases=["Data too short when trying to read string"])
        c("format_size_error", _patched(mono, 16, "<I", 20), error="INVALID_ARGUMENT",
          phrases=["Bad format chunk size for WAV: Expected 16 or 18, but got20"])
        c("float_format_error", _patched(mono, 20, "<H", 3), error="INVALID_ARGUMENT",
          phrases=["Bad audio format for WAV: Expected 1 (PCM), but got3"])
        c("no_channels_error", _patched(mono, 22, "<H", 0), error="INVALID_ARGUMENT",
          phrases=["Bad number of channels for WAV: Expected at least 1, but got 0"])
        c("8_bit_error", _patched(mono, 34, "<H", 8), error="INVALID_ARGUMENT",
          phrases=["Can only read 16-bit WAV files, but received 8"])
        c("block_align_error", _patched(stereo, 32, "<H", 3), error="INVALID_ARGUMENT",
          phrases=["Bad bytes per sample in WAV header: Expected 4 but got 3"])
        c("byte_rate_error", _patched(stereo, 28, "<I", 3), error="INVALID_ARGUMENT",
          phrases=["Bad bytes per second in WAV header: Expected 64000 but got 3 "
                   "(sample_rate=16000, bytes_per_sample=4)"])
        c("no_data_error", mono[:36], error="INVALID_ARGUMENT",
          phrases=["No data chunk found in WAV"])
        c("two_data_error", mono + mono[36:], error="INVALID_ARGUMENT",
          phrases=["More than one data chunk found in WAV"])
        c("vector_error", [mono], error="INVALID_ARGUMENT",
          phrases=["contents must be scalar, got shape [1]"])
    rec.for_dtypes(op, ["float32"], gen)


def encode_wav(rec):
    op = "EncodeWav"

    def gen(dt):
        def c(what, audio, rate, error=None, phrases=()):
            rec.case(op, dt, what, lambda: tf.raw_ops.EncodeWav(
                audio=ph("audio", audio), sample_rate=ph("sample_rate", rate), name="out"),
                error=error, phrases=phrases, case_dtype="")

        r = np.int32(16000)
        c("stereo", _wave([50, 2], 6), r)
        c("rounding_and_clipping", np.array(
            [[0.0], [0.5], [1.0], [-1.0], [2.0], [-3.0], [0.49999 / 32767], [-0.5 / 32768],
             [np.nan], [np.inf], [-np.inf], [1e-6]], np.float32), np.int32(8000))
        c("no_frames", np.zeros([0, 3], np.float32), r)
        c("rank_error", _wave([10, 1], 7)[:, 0], r, error="INVALID_ARGUMENT",
          phrases=["audio must be 2-dimensional[10]"])
        c("rate_shape_error", _wave([10, 1], 7), np.array([16000], np.int32),
          error="INVALID_ARGUMENT",
          phrases=["Input sample_rate should be a scalar tensor, got [1] instead."])
        c("rate_zero_error", _wave([10, 1], 7), np.int32(0), error="INVALID_ARGUMENT",
          phrases=["sample_rate must be in (0, 2^32), got: 0"])
        c("rate_negative_error", _wave([10, 1], 7), np.int32(-5), error="INVALID_ARGUMENT",
          phrases=["sample_rate must be in (0, 2^32), got: 18446744073709551611"])
        c("no_channels_error", np.zeros([4, 0], np.float32), r, error="INVALID_ARGUMENT",
          phrases=["num_channels must be in (0, 2^16), got: 0"])
    rec.for_dtypes(op, ["float32"], gen)

def build_all(rec, emit):
    decode_wav(rec)
    emit("DecodeWav")
    encode_wav(rec)
    emit("EncodeWav")
    audio_spectrogram(rec)
    emit("AudioSpectrogram")
    mfcc(rec)
    emit("Mfcc")
