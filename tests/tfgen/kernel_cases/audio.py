"""The speech front end of tf.raw_ops: AudioSpectrogram (Hann-windowed power spectra of frames)
and Mfcc (mel filterbank, log, DCT), as the speech-commands models compute features."""
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


def build_all(rec, emit):
    audio_spectrogram(rec)
    emit("AudioSpectrogram")
    mfcc(rec)
    emit("Mfcc")
