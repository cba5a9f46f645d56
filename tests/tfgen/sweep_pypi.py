"""Model families for tests/tfgen/model_sweep.py built with the model libraries users install
from PyPI: keras-hub (Keras 3 backbones and tasks: text encoders, decoder-only language models
with rotary embeddings, RMSNorm, grouped-query attention and mixtures of experts, a generate loop,
encoder-decoders, vision transformers, CNN classifiers, detectors and segmenters), keras-cv
(YOLOv8 with its decoding), keras-cv-attention-models (timm-era image nets for tf.keras 2) and
tf-slim (TF1 image nets, frozen with tf.compat.v1's graph_util).

Every model is constructed from a small config or constructor with seeded random weights; no
preset or pretrained weight is loaded and nothing is downloaded. Install for this script only
(keras-hub's backbones need no tensorflow-text; `pip install --no-deps` keeps TensorFlow as is):

    pip install keras-hub keras-cv tf-slim keras-cv-attention-models tf-keras

add(models) registers the families; a missing library leaves its models out (the sweep prints
which). Text inputs: batch 2, token sequences of 8 with the second row's last two tokens padded.
"""
import numpy as np

from model_sweep import _rand, _spec, _tf, tf1_graph

BATCH, SEQ, VOCAB = 2, 8, 97


def _keras():
    import keras
    return keras


def _hub():
    import keras_hub
    return keras_hub


# ---------------------------------------------------------------------------------------------
# Inputs.

def _token_ids(seed=3, seq=SEQ):
    return np.random.RandomState(seed).randint(1, VOCAB, (BATCH, seq)).astype(np.int32)


def _padding_mask(seq=SEQ):
    mask = np.ones((BATCH, seq), np.int32)
    mask[1, -2:] = 0
    return mask


def _text(segments=False, dynamic=False, seq=SEQ, mask_dtype="int32"):
    """token_ids, padding_mask (and segment_ids): what keras-hub's text backbones take."""
    shape = (None, None) if dynamic else (BATCH, seq)
    ins = [("token_ids", shape, "int32", _token_ids(seq=seq)),
           ("padding_mask", shape, mask_dtype, _padding_mask(seq).astype(mask_dtype))]
    if segments:
        seg = np.zeros((BATCH, seq), np.int32)
        seg[:, seq // 2:] = 1
        ins.append(("segment_ids", shape, "int32", seg))
    return ins


def _seq2seq(enc_seq=SEQ, dec_seq=6):
    return [("encoder_token_ids", (BATCH, enc_seq), "int32", _token_ids(4, enc_seq)),
            ("encoder_padding_mask", (BATCH, enc_seq), "int32", _padding_mask(enc_seq)),
            ("decoder_token_ids", (BATCH, dec_seq), "int32", _token_ids(5, dec_seq)),
            ("decoder_padding_mask", (BATCH, dec_seq), "int32", _padding_mask(dec_seq))]


def _images(size, batch=1, channels=3, seed=2):
    return [("images", (batch, size, size, channels), "float32",
             _rand((batch, size, size, channels), seed))]


def hub_model(make, inputs, as_dict=True, lower_control_flow=True, dynamic=False, call=None):
    """A builder freezing the Keras 3 model make() with convert_variables_to_constants_v2 (as
    suite_models._freeze_fn does): the inputs are fed as the dict keras-hub's backbones take
    (as_dict) or as one tensor; every output of the model (a dict, list or tensor), or of
    call(model, inputs) when given, is returned."""
    def build():
        tf = _tf()
        from tensorflow.python.framework import convert_to_constants
        _keras().utils.set_random_seed(1)
        model = make()
        names = [n for n, _, _, _ in inputs]
        specs = [_spec((None,) * len(s) if dynamic else s, d, n) for n, s, d, _ in inputs]

        def fn(*xs):
            arg = dict(zip(names, xs)) if as_dict else xs[0]
            if call is not None:
                return tf.nest.flatten(call(model, arg))
            return tf.nest.flatten(model(arg, training=False))
        concrete = tf.function(fn).get_concrete_function(*specs)
        frozen = convert_to_constants.convert_variables_to_constants_v2(
            concrete, lower_control_flow=lower_control_flow)
        return frozen.graph.as_graph_def(), {n: v for n, _, _, v in inputs}, {}
    return build


# ---------------------------------------------------------------------------------------------
# keras-hub text encoders.

def _enc(cls, segments=False, dynamic=False, **kw):
    def make():
        return getattr(_hub().models, cls)(**kw)
    return hub_model(make, _text(segments, dynamic), dynamic=dynamic)


_SMALL = dict(num_layers=2, hidden_dim=32, intermediate_dim=64)


def _encoders(m):
    m["hub_BERT"] = ("keras-hub BertBackbone", _enc(
        "BertBackbone", True, vocabulary_size=VOCAB, num_heads=4, max_sequence_length=32,
        **_SMALL))
    m["hub_BERT_dynamic"] = ("keras-hub BertBackbone, batch and length None", _enc(
        "BertBackbone", True, True, vocabulary_size=VOCAB, num_heads=4, max_sequence_length=32,
        **_SMALL))
    m["hub_RoBERTa"] = ("keras-hub RobertaBackbone", _enc(
        "RobertaBackbone", vocabulary_size=VOCAB, num_heads=4, max_sequence_length=32, **_SMALL))
    m["hub_XLMRoBERTa"] = ("keras-hub XLMRobertaBackbone", _enc(
        "XLMRobertaBackbone", vocabulary_size=VOCAB, num_heads=4, max_sequence_length=32,
        **_SMALL))
    m["hub_DistilBERT"] = ("keras-hub DistilBertBackbone", _enc(
        "DistilBertBackbone", vocabulary_size=VOCAB, num_heads=4, max_sequence_length=32,
        **_SMALL))
    m["hub_ALBERT"] = ("keras-hub AlbertBackbone (shared layers, factorized embedding)", _enc(
        "AlbertBackbone", True, vocabulary_size=VOCAB, num_heads=4, embedding_dim=16,
        num_groups=1, num_inner_repetitions=1, max_sequence_length=32, **_SMALL))
    m["hub_DeBERTaV3"] = ("keras-hub DebertaV3Backbone (disentangled relative attention)", _enc(
        "DebertaV3Backbone", vocabulary_size=VOCAB, num_heads=4, max_sequence_length=32,
        bucket_size=6, **_SMALL))
    m["hub_ELECTRA"] = ("keras-hub ElectraBackbone", _enc(
        "ElectraBackbone", True, vocab_size=VOCAB, num_heads=4, embedding_dim=16,
        max_sequence_length=32, **_SMALL))
    m["hub_FNet"] = ("keras-hub FNetBackbone (Fourier mixing)", hub_model(
        lambda: _hub().models.FNetBackbone(vocabulary_size=VOCAB, max_sequence_length=32,
                                           **_SMALL),
        [i for i in _text(True) if i[0] != "padding_mask"]))
    m["hub_RoformerV2"] = ("keras-hub RoformerV2Backbone (rotary, no bias)", _enc(
        "RoformerV2Backbone", True, vocabulary_size=VOCAB, num_heads=4, head_size=8, **_SMALL))
    m["hub_ESM"] = ("keras-hub ESMBackbone (protein LM, rotary)", hub_model(
        lambda: _hub().models.ESMBackbone(vocabulary_size=VOCAB, num_heads=4,
                                          max_sequence_length=32, **_SMALL),
        [i for i in _text() if i[0] == "token_ids"]))
    m["hub_XLNet"] = ("keras-hub XLNetBackbone (relative positions, two streams)", hub_model(
        lambda: _hub().models.XLNetBackbone(vocabulary_size=VOCAB, num_heads=4, **_SMALL),
        _text(True)))


# ---------------------------------------------------------------------------------------------
# keras-hub decoder-only language models (causal masks, rotary embeddings, RMSNorm, GQA).

def _decoders(m):
    gqa = dict(vocabulary_size=VOCAB, num_layers=2, num_query_heads=4, num_key_value_heads=2,
               hidden_dim=32, intermediate_dim=64)
    dec = [
        ("GPT2", "GPT2Backbone", dict(vocabulary_size=VOCAB, num_heads=4,
                                      max_sequence_length=32, **_SMALL)),
        ("OPT", "OPTBackbone", dict(vocabulary_size=VOCAB, num_heads=4, max_sequence_length=32,
                                    **_SMALL)),
        ("Llama", "LlamaBackbone", gqa),
        ("Llama3", "Llama3Backbone", gqa),
        ("Mistral", "MistralBackbone", dict(gqa, sliding_window=4)),
        ("Gemma", "GemmaBackbone", dict(gqa, head_dim=8)),
        ("Gemma2", "GemmaBackbone", dict(
            gqa, head_dim=8, use_post_ffw_norm=True, use_post_attention_norm=True,
            attention_logit_soft_cap=50.0, final_logit_soft_cap=30.0,
            use_sliding_window_attention=True, sliding_window_size=4)),
        ("Qwen2", "Qwen2Backbone", gqa),
        ("Qwen3", "Qwen3Backbone", dict(gqa, head_dim=8)),
        ("Phi3", "Phi3Backbone", gqa),
        ("Falcon", "FalconBackbone", dict(vocabulary_size=VOCAB, num_attention_heads=4,
                                          **_SMALL)),
        ("Bloom", "BloomBackbone", dict(vocabulary_size=VOCAB, num_heads=4, **_SMALL)),
        ("GPTNeoX", "GPTNeoXBackbone", dict(vocabulary_size=VOCAB, num_heads=4,
                                            max_sequence_length=32, **_SMALL)),
        ("Mixtral", "MixtralBackbone", dict(gqa, num_experts=4, top_k=2)),
    ]
    for name, cls, kw in dec:
        m["hub_" + name] = ("keras-hub %s" % cls, _enc(cls, **kw))
    m["hub_Llama_dynamic"] = ("keras-hub LlamaBackbone, batch and length None", _enc(
        "LlamaBackbone", dynamic=True, **gqa))
    m["hub_GPT2_dynamic"] = ("keras-hub GPT2Backbone, batch and length None", _enc(
        "GPT2Backbone", dynamic=True, vocabulary_size=VOCAB, num_heads=4,
        max_sequence_length=32, **_SMALL))
    m["hub_GPT2_CausalLM"] = ("keras-hub GPT2CausalLM logits (tied embedding head)", hub_model(
        lambda: _hub().models.GPT2CausalLM(_hub().models.GPT2Backbone(
            vocabulary_size=VOCAB, num_heads=4, max_sequence_length=32, **_SMALL)),
        _text()))
    m["hub_BERT_TextClassifier"] = ("keras-hub BertTextClassifier logits", hub_model(
        lambda: _hub().models.BertTextClassifier(_hub().models.BertBackbone(
            vocabulary_size=VOCAB, num_heads=4, max_sequence_length=32, **_SMALL),
            num_classes=3, preprocessor=None), _text(True)))


def _generate(lower):
    """GPT2CausalLM.generate_step, what a served generate() runs: a prompt of 3 and 5 tokens
    in 10 slots, the key/value cache filled by a first pass and updated in a while loop (Keras's
    slice_update: XlaDynamicUpdateSlice), greedy sampling (argmax) of the padded slots."""
    def make():
        hm = _hub().models
        lm = hm.GPT2CausalLM(hm.GPT2Backbone(vocabulary_size=VOCAB, num_heads=4,
                                             max_sequence_length=32, **_SMALL),
                             preprocessor=None)
        lm.compile(sampler="greedy")
        return lm
    mask = np.zeros((BATCH, 10), bool)
    mask[0, :3] = True
    mask[1, :5] = True
    ids = np.where(mask, _token_ids(8, 10), 0).astype(np.int32)
    return hub_model(make, [("token_ids", (BATCH, 10), "int32", ids),
                            ("padding_mask", (BATCH, 10), "bool", mask)],
                     lower_control_flow=lower,
                     call=lambda lm, x: lm.generate_step(x, stop_token_ids=None))


def _more_decoders(m):
    m["hub_GPT2_generate_lowered"] = ("keras-hub GPT2CausalLM.generate_step, lowered",
                                      _generate(True))
    m["hub_GPT2_generate_while"] = ("keras-hub GPT2CausalLM.generate_step, While",
                                    _generate(False))
    gqa = dict(vocabulary_size=VOCAB, num_layers=2, num_query_heads=4, num_key_value_heads=2,
               hidden_dim=32, intermediate_dim=64)
    m["hub_GptOss"] = ("keras-hub GptOssBackbone (MoE, attention sinks)", _enc(
        "GptOssBackbone", **dict(gqa, num_experts=4, top_k=2, sliding_window=4, head_dim=8)))
    m["hub_Qwen3Moe"] = ("keras-hub Qwen3MoeBackbone (MoE, QK norm)", _enc(
        "Qwen3MoeBackbone", **dict(gqa, moe_intermediate_dim=16, num_experts=4, top_k=2,
                                   head_dim=8)))
    m["hub_QwenMoe"] = ("keras-hub QwenMoeBackbone (MoE, shared expert)", _enc(
        "QwenMoeBackbone", **dict(gqa, moe_intermediate_dim=16,
                                  shared_expert_intermediate_dim=32, num_experts=4, top_k=2)))
    m["hub_Gemma3_text"] = ("keras-hub Gemma3Backbone, text only (QK norm, local/global)",
                            _enc("Gemma3Backbone", **dict(
                                gqa, image_size=16, head_dim=8, sliding_window_size=4,
                                use_sliding_window_attention=True)))
    m["hub_Qwen3_5"] = ("keras-hub Qwen3_5Backbone (gated delta-rule linear attention)", _enc(
        "Qwen3_5Backbone", **dict(gqa, head_dim=8, layer_types=["linear_attention",
                                                                "full_attention"],
                                  linear_num_key_heads=2, linear_num_value_heads=4,
                                  linear_key_head_dim=8, linear_value_head_dim=8)))
    m["hub_RWKV7"] = ("keras-hub RWKV7Backbone (recurrent time mixing)", hub_model(
        lambda: _hub().models.RWKV7Backbone(hidden_size=32, head_size=8, num_layers=2,
                                            vocabulary_size=VOCAB, intermediate_dim=64,
                                            gate_lora=8, mv_lora=8, aaa_lora=8, decay_lora=8),
        _text()))
    m["hub_EdRec"] = ("keras-hub EdRecBackbone (encoder-decoder recommender)", hub_model(
        lambda: _hub().models.EdRecBackbone(vocab_size=VOCAB, num_layers_enc=1,
                                            num_layers_dec=1, hidden_dim=32,
                                            intermediate_dim=64, num_heads=4),
        _seq2seq()))


# ---------------------------------------------------------------------------------------------
# keras-hub encoder-decoders.

def _encoder_decoders(m):
    m["hub_T5"] = ("keras-hub T5Backbone (relative position buckets, gated GELU)", hub_model(
        lambda: _hub().models.T5Backbone(vocabulary_size=VOCAB, num_heads=4, key_value_dim=8,
                                         activation="gelu", **_SMALL), _seq2seq()))
    m["hub_BART"] = ("keras-hub BartBackbone", hub_model(
        lambda: _hub().models.BartBackbone(vocabulary_size=VOCAB, num_heads=4,
                                           max_sequence_length=32, **_SMALL), _seq2seq()))

    def whisper():
        return _hub().models.WhisperBackbone(vocabulary_size=VOCAB, num_heads=4, num_mels=16,
                                              max_encoder_sequence_length=32,
                                              max_decoder_sequence_length=16, **_SMALL)
    m["hub_Whisper"] = ("keras-hub WhisperBackbone (Conv1D stem over mels)", hub_model(
        whisper, [("encoder_features", (BATCH, 32, 16), "float32", _rand((BATCH, 32, 16), 6)),
                  ("decoder_token_ids", (BATCH, 6), "int32", _token_ids(5, 6)),
                  ("decoder_padding_mask", (BATCH, 6), "int32", _padding_mask(6))]))


# ---------------------------------------------------------------------------------------------
# keras-hub vision.

def _img(make, size, as_dict=False, batch=1, call=None):
    return hub_model(make, _images(size, batch), as_dict=as_dict, call=call)


def _vision(m):
    hm = _hub().models
    m["hub_ViT"] = ("keras-hub ViTBackbone", _img(lambda: hm.ViTBackbone(
        image_shape=(32, 32, 3), patch_size=8, num_layers=2, num_heads=4, hidden_dim=32,
        mlp_dim=64), 32))
    m["hub_DeiT"] = ("keras-hub DeiTBackbone (distillation token)", _img(lambda: hm.DeiTBackbone(
        image_shape=(32, 32, 3), patch_size=8, num_layers=2, num_heads=4, hidden_dim=32,
        intermediate_dim=64), 32))
    m["hub_DINOv2"] = ("keras-hub DINOV2Backbone (layer scale, interpolated positions)",
                       _img(lambda: hm.DINOV2Backbone(
                           patch_size=4, num_layers=2, hidden_dim=32, num_heads=4,
                           intermediate_dim=64, image_shape=(32, 32, 3),
                           position_embedding_shape=(48, 48, 3)), 32))
    m["hub_Swin"] = ("keras-hub SwinTransformerBackbone", _img(
        lambda: hm.SwinTransformerBackbone(image_shape=(32, 32, 3), embed_dim=16, depths=[2, 2],
                                           num_heads=[2, 4], window_size=4, patch_size=2), 32))
    m["hub_ViTDet_SAM_encoder"] = ("keras-hub ViTDetBackbone (SAM's image encoder)", _img(
        lambda: hm.ViTDetBackbone(hidden_size=16, num_layers=4, intermediate_dim=32,
                                  num_heads=2, global_attention_layer_indices=[1, 3],
                                  image_shape=(32, 32, 3), patch_size=4,
                                  num_output_channels=8, window_size=4), 32))
    m["hub_MiT_SegFormer"] = ("keras-hub MiT + SegFormerImageSegmenter", _img(
        lambda: hm.SegFormerImageSegmenter(hm.SegFormerBackbone(
            image_encoder=_mit(), projection_filters=16), num_classes=3), 32))
    m["hub_MiT_classifier"] = ("keras-hub MiTImageClassifier", _img(
        lambda: hm.MiTImageClassifier(_mit(), num_classes=4), 32))
    m["hub_CSPDarkNet"] = ("keras-hub CSPNetBackbone (dark blocks, leaky ReLU)", _img(
        lambda: hm.CSPNetImageClassifier(hm.CSPNetBackbone(
            stem_filters=16, stem_kernel_size=3, stem_strides=1, stackwise_depth=[1, 2, 1],
            stackwise_strides=[1, 2, 2], stackwise_num_filters=[16, 32, 48],
            block_type="dark_block", stage_type="dark", image_shape=(32, 32, 3)),
            num_classes=5), 32))
    m["hub_CSPResNet"] = ("keras-hub CSPNetBackbone (cross stages, grouped conv)", _img(
        lambda: hm.CSPNetBackbone(
            stem_filters=16, stem_kernel_size=3, stem_strides=2, stackwise_depth=[1, 1],
            stackwise_strides=[1, 2], stackwise_num_filters=[32, 64],
            block_type="bottleneck_block", stage_type="csp", groups=2, bottle_ratio=[0.5],
            block_ratio=[1.0], expand_ratio=[2.0], image_shape=(32, 32, 3)), 32))
    m["hub_CSPNet_cs3"] = ("keras-hub CSPNetBackbone (cs3 stages, SiLU)", _img(
        lambda: hm.CSPNetBackbone(
            stem_filters=16, stem_kernel_size=3, stem_strides=2, stackwise_depth=[1, 1],
            stackwise_strides=[1, 2], stackwise_num_filters=[32, 64],
            block_type="bottleneck_block", stage_type="cs3", bottle_ratio=[0.5],
            block_ratio=[0.5], expand_ratio=[1.0], activation="silu",
            image_shape=(32, 32, 3)), 32))
    m["hub_DenseNet"] = ("keras-hub DenseNetImageClassifier", _img(
        lambda: hm.DenseNetImageClassifier(hm.DenseNetBackbone(
            stackwise_num_repeats=[2, 2, 2], image_shape=(32, 32, 3), growth_rate=8),
            num_classes=4), 32))
    m["hub_EfficientNet"] = ("keras-hub EfficientNetBackbone (fused and MBConv, SE)", _img(
        _efficientnet, 32))
    m["hub_MobileNetV3"] = ("keras-hub MobileNetBackbone (v3 blocks, hard swish, SE)", _img(
        _mobilenet, 32))
    m["hub_ResNetV2"] = ("keras-hub ResNetImageClassifier (pre-activation)", _img(
        lambda: hm.ResNetImageClassifier(hm.ResNetBackbone(
            input_conv_filters=[64], input_conv_kernel_sizes=[7],
            stackwise_num_filters=[64, 32], stackwise_num_blocks=[2, 2],
            stackwise_num_strides=[1, 2], block_type="bottleneck_block",
            use_pre_activation=True, image_shape=(32, 32, 3)), num_classes=4), 32))
    m["hub_ResNetVD"] = ("keras-hub ResNetBackbone (vd: 3-conv stem, avg-pool shortcut)", _img(
        lambda: hm.ResNetBackbone(
            input_conv_filters=[8, 8, 16], input_conv_kernel_sizes=[3, 3, 3],
            stackwise_num_filters=[64, 32], stackwise_num_blocks=[1, 2],
            stackwise_num_strides=[1, 2], block_type="bottleneck_block_vd",
            image_shape=(32, 32, 3)), 32))
    m["hub_Xception"] = ("keras-hub XceptionBackbone", _img(lambda: hm.XceptionBackbone(
        stackwise_conv_filters=[[16, 32], [32, 64], [128, 128]],
        stackwise_pooling=[True, True, False], image_shape=(64, 64, 3)), 64))
    m["hub_VGG"] = ("keras-hub VGGImageClassifier", _img(
        lambda: hm.VGGImageClassifier(hm.VGGBackbone(
            stackwise_num_repeats=[1, 2], stackwise_num_filters=[8, 16],
            image_shape=(32, 32, 3)), num_classes=4, pooling="max"), 32))
    m["hub_HGNetV2"] = ("keras-hub HGNetV2Backbone (learnable affine, light conv)", _img(
        _hgnet, 32))
    m["hub_RetinaNet"] = ("keras-hub RetinaNetObjectDetector heads (FPN over a ResNet)", _img(
        _retinanet, 64))
    m["hub_RetinaNet_decode"] = ("keras-hub RetinaNetObjectDetector + decode_predictions (NMS)",
                                 _img(_retinanet, 64, call=lambda det, x: det.decode_predictions(
                                     det(x, training=False), x)))
    m["hub_DeepLabV3"] = ("keras-hub DeepLabV3ImageSegmenter (ASPP, atrous)", _img(
        lambda: hm.DeepLabV3ImageSegmenter(hm.DeepLabV3Backbone(
            image_encoder=_resnet(), spatial_pyramid_pooling_key="P4",
            upsampling_size=4, dilation_rates=[2, 4], low_level_feature_key="P2",
            projection_filters=8, image_shape=(64, 64, 3)), num_classes=3), 64))
    m["hub_BASNet"] = ("keras-hub BASNetImageSegmenter (refinement module)", _img(
        lambda: hm.BASNetImageSegmenter(hm.BASNetBackbone(
            image_encoder=_resnet(basic=True), num_classes=1, image_shape=(32, 32, 3)),
            num_classes=1), 32))
    m["hub_CLIP_vision"] = ("keras-hub CLIPVisionEncoder (quick GELU)", _img(
        lambda: _hub().models.CLIPVisionEncoder(
            patch_size=8, hidden_dim=32, num_layers=2, num_heads=4, intermediate_dim=64,
            intermediate_activation="quick_gelu", image_shape=(32, 32, 3)), 32))


def _more_vision(m):
    hm = _hub().models
    m["hub_DINOv3"] = ("keras-hub DINOV3Backbone (2-D rotary, registers)", _img(
        lambda: hm.DINOV3Backbone(patch_size=8, num_layers=2, hidden_dim=32, num_heads=4,
                                  intermediate_dim=64, num_register_tokens=2,
                                  image_shape=(32, 32, 3)), 32))
    m["hub_SigLIP_vision"] = ("keras-hub SigLIPVisionEncoder (tanh GELU, MAP head)", _img(
        lambda: hm.SigLIPVisionEncoder(patch_size=8, hidden_dim=32, num_layers=2, num_heads=4,
                                       intermediate_dim=64, image_shape=(32, 32, 3)), 32))
    m["hub_CLIP_text"] = ("keras-hub CLIPTextEncoder (causal, pooled at the last token)",
                          hub_model(lambda: hm.CLIPTextEncoder(
                              vocabulary_size=VOCAB, embedding_dim=32, hidden_dim=32,
                              num_layers=2, num_heads=4, intermediate_dim=64,
                              max_sequence_length=SEQ), _text()))
    m["hub_DepthAnything"] = ("keras-hub DepthAnythingBackbone (DINOv2 + DPT head)", _img(
        lambda: hm.DepthAnythingBackbone(
            image_encoder=hm.DINOV2Backbone(
                patch_size=4, num_layers=4, hidden_dim=32, num_heads=4, intermediate_dim=64,
                image_shape=(32, 32, 3), position_embedding_shape=(32, 32, 3),
                apply_layernorm=True),
            reassemble_factors=[4, 2, 1, 0.5], neck_hidden_dims=[8, 16, 16, 32],
            fusion_hidden_dim=16, head_hidden_dim=8, head_in_index=-1,
            feature_keys=["stage1", "stage2", "stage3", "stage4"]), 32))
    m["hub_SAM"] = ("keras-hub SAMBackbone (ViTDet encoder, prompt encoder, mask decoder)",
                    hub_model(_sam, _sam_inputs()))


def _sam():
    hm, hl = _hub().models, _hub().layers
    return hm.SAMBackbone(
        image_encoder=hm.ViTDetBackbone(
            hidden_size=16, num_layers=2, intermediate_dim=32, num_heads=2,
            global_attention_layer_indices=[1], patch_size=8, num_output_channels=8,
            window_size=2, image_shape=(32, 32, 3)),
        prompt_encoder=hl.SAMPromptEncoder(hidden_size=8, image_embedding_size=(4, 4),
                                           input_image_size=(32, 32), mask_in_channels=16),
        mask_decoder=hl.SAMMaskDecoder(num_layers=2, hidden_size=8, intermediate_dim=16,
                                       num_heads=2, embedding_dim=8, num_multimask_outputs=3,
                                       iou_head_depth=2, iou_head_hidden_dim=8))


def _sam_inputs():
    rng = np.random.RandomState(9)
    return [("images", (1, 32, 32, 3), "float32", _rand((1, 32, 32, 3), 9)),
            ("points", (1, 2, 2), "float32", rng.uniform(0, 32, (1, 2, 2)).astype(np.float32)),
            ("labels", (1, 2), "float32", np.array([[1, 0]], np.float32)),
            ("boxes", (1, 1, 2, 2), "float32", np.array([[[[4, 4], [20, 24]]]], np.float32)),
            ("masks", (1, 0, 32, 32, 1), "float32", np.zeros((1, 0, 32, 32, 1), np.float32))]


def _resnet(basic=False):
    return _hub().models.ResNetBackbone(
        input_conv_filters=[64] if basic else [16], input_conv_kernel_sizes=[7],
        stackwise_num_filters=[64, 64, 64, 64] if basic else [64, 16, 16],
        stackwise_num_blocks=[1, 1, 1, 1] if basic else [1, 1, 1],
        stackwise_num_strides=[1, 2, 2, 2] if basic else [1, 2, 2],
        block_type="basic_block" if basic else "bottleneck_block",
        image_shape=(None, None, 3))


def _mit():
    return _hub().models.MiTBackbone(
        layerwise_depths=[1, 1], num_layers=2, layerwise_num_heads=[1, 2],
        layerwise_sr_ratios=[2, 1], max_drop_path_rate=0.1, layerwise_patch_sizes=[7, 3],
        layerwise_strides=[4, 2], image_shape=(32, 32, 3), hidden_dims=[8, 16])


def _efficientnet():
    return _hub().models.EfficientNetBackbone(
        stackwise_kernel_sizes=[3, 3, 5], stackwise_num_repeats=[1, 2, 1],
        stackwise_input_filters=[16, 16, 24], stackwise_output_filters=[16, 24, 32],
        stackwise_expansion_ratios=[1, 4, 6], stackwise_squeeze_and_excite_ratios=[0, 0.25, 0.25],
        stackwise_strides=[1, 2, 2], stackwise_block_types=["fused", "fused", "unfused"],
        width_coefficient=1.0, depth_coefficient=1.0, input_shape=(32, 32, 3))


def _mobilenet():
    return _hub().models.MobileNetBackbone(
        stackwise_expansion=[[16], [32, 48]], stackwise_num_blocks=[1, 2],
        stackwise_num_filters=[[16], [24, 24]], stackwise_kernel_size=[[3], [5, 5]],
        stackwise_num_strides=[[2], [2, 1]], stackwise_se_ratio=[[None], [0.25, 0.25]],
        stackwise_activation=[["relu"], ["hard_swish", "hard_swish"]],
        stackwise_padding=[[1], [2, 2]], output_num_filters=32, depthwise_filters=8,
        depthwise_stride=2, depthwise_residual=False, last_layer_filter=32,
        squeeze_and_excite=0.5, image_shape=(32, 32, 3))


def _hgnet():
    return _hub().models.HGNetV2Backbone(
        depths=[1, 1], embedding_size=16, hidden_sizes=[32, 64], stem_channels=[3, 8, 16],
        hidden_act="relu", use_learnable_affine_block=True,
        stackwise_stage_filters=[[16, 16, 32, 1, 2, 3], [32, 16, 64, 1, 2, 3]],
        apply_downsample=[False, True], use_lightweight_conv_block=[False, True],
        image_shape=(32, 32, 3))


def _retinanet():
    hm = _hub().models
    backbone = hm.RetinaNetBackbone(image_encoder=_resnet(), min_level=3, max_level=4,
                                    use_p5=False, image_shape=(64, 64, 3))
    det = hm.RetinaNetObjectDetector(backbone, num_classes=3, pre_logits_num_conv_layers=1)
    # The initial class logits sit at the 0.01 prior, under the decoder's 0.5 threshold, and the
    # box deltas shrink every anchor to nothing: no detection would survive. Make the heads
    # look trained (scores around 0.5, boxes near their anchors).
    rng = np.random.RandomState(15)
    for w in det.weights:
        if w.path.endswith("head/logits_layer/kernel"):
            scale = 0.05 if w.path.startswith("classification") else 0.002
            w.assign(rng.normal(0, scale, w.shape).astype(np.float32))
        elif w.path.endswith("head/logits_layer/bias"):
            w.assign(np.zeros(w.shape, np.float32))
    return det


# ---------------------------------------------------------------------------------------------
# keras-cv (Keras 3): YOLOv8, whose detector keras-hub does not ship, with and without its
# decoding (distribution-focal box decoding, then non-max suppression).

def _yolov8():
    import keras_cv
    backbone = keras_cv.models.YOLOV8Backbone(
        stackwise_channels=[8, 16, 24, 32], stackwise_depth=[1, 1, 1, 1],
        include_rescaling=True, input_shape=(64, 64, 3))
    det = keras_cv.models.YOLOV8Detector(backbone=backbone, num_classes=3,
                                         bounding_box_format="xyxy", fpn_depth=1)
    # The initial class heads score every anchor 0.5 +- 1e-5: ties that one ulp of a
    # convolution's summation order reorders. Spread the logits as a trained head does.
    rng = np.random.RandomState(12)
    for layer in det.layers:
        if "class_3_conv" in layer.name:
            layer.kernel.assign(rng.normal(0, 1, layer.kernel.shape).astype(np.float32))
    return det


def _keras_cv(m):
    pixels = [("images", (1, 64, 64, 3), "float32",
               np.random.RandomState(11).uniform(0, 255, (1, 64, 64, 3)).astype(np.float32))]
    m["cv_YOLOv8"] = ("keras-cv YOLOV8Detector heads (C2f, SPPF, PAN)", hub_model(
        _yolov8, pixels, as_dict=False))
    m["cv_YOLOv8_decode"] = ("keras-cv YOLOV8Detector + decode_predictions (NMS)", hub_model(
        _yolov8, pixels, as_dict=False,
        call=lambda det, x: det.decode_predictions(det(x, training=False), x)))


# ---------------------------------------------------------------------------------------------
# keras-cv-attention-models (kecam): image backbones of the timm era written for tf.keras 2. On
# TensorFlow 2.21 they need tf-keras and TF_USE_LEGACY_KERAS=1, which must be set before
# TensorFlow is imported, so each is frozen in a child process (this file run as a script).

KECAM = {  # sweep name -> (module, constructor); 64x64 input, 10 logits where it classifies
    "CoAtNet0": ("coatnet", "CoAtNet0"),
    "EfficientFormerV2S0": ("efficientformer", "EfficientFormerV2S0"),
    "LeViT128S": ("levit", "LeViT128S"),
    "MaxViT_Tiny": ("maxvit", "MaxViT_Tiny"),
    "ConvNeXtV2Atto": ("convnext", "ConvNeXtV2Atto"),
    "RepViT_M09": ("repvit", "RepViT_M09"),
    "FasterNetT0": ("fasternet", "FasterNetT0"),
    "GhostNetV2": ("ghostnet", "GhostNetV2_100"),
    "MobileViT_XXS": ("mobilevit", "MobileViT_XXS"),
    "MobileViT_V2_050": ("mobilevit", "MobileViT_V2_050"),
    "EdgeNeXt_XX_Small": ("edgenext", "EdgeNeXt_XX_Small"),
    "CAFormerS18": ("caformer", "CAFormerS18"),
    "EfficientViT_B0": ("efficientvit", "EfficientViT_B0"),
    "YOLOXNano": ("yolox", "YOLOXNano"),
    "HorNetTiny": ("hornet", "HorNetTiny"),
    "MogaNetXtiny": ("moganet", "MogaNetXtiny"),
    "TinyViT_5M": ("tinyvit", "TinyViT_5M"),
    "FastViT_T8": ("fastvit", "FastViT_T8"),
    "InceptionNeXtTiny": ("inceptionnext", "InceptionNeXtTiny"),
    "DaViT_T": ("davit", "DaViT_T"),
    "RegNetZB16": ("regnet", "RegNetZB16"),
    "ResNest50": ("resnest", "ResNest50"),
    "CMTTiny": ("cmt", "CMTTiny"),
    "GCViT_XXTiny": ("gcvit", "GCViT_XXTiny"),
    "SwinV2Tiny_window8": ("swin_transformer_v2", "SwinTransformerV2Tiny_window8"),
    "EfficientDetD0": ("efficientdet", "EfficientDetD0"),
}
KECAM_DETECTORS = ("YOLOXNano", "EfficientDetD0")


def _kecam_freeze(name, out_path):
    """In the child process: builds KECAM[name] with tf.keras 2 and writes its frozen
    GraphDef (input placeholder "x")."""
    import importlib
    import tensorflow as tf
    from model_sweep import suite_models
    tf.keras.utils.set_random_seed(1)
    module, ctor = KECAM[name]
    # Logits, not softmax: several of these nets start with activations near 1e-9, which a
    # softmax turns into exactly 0.1 for every class.
    kw = {} if name in KECAM_DETECTORS else {"num_classes": 10, "classifier_activation": None}
    model = getattr(getattr(importlib.import_module("keras_cv_attention_models"), module), ctor)(
        input_shape=(64, 64, 3), pretrained=None, **kw)
    # Zero-initialized weights (residual batch norms' gamma, layer scales, positional biases,
    # some heads) would leave whole branches out of the comparison: give them seeded values.
    rng = np.random.RandomState(14)
    for w in model.weights:
        if not any(k in w.name for k in ("moving_", "beta", "bias")) and not np.any(w.numpy()):
            w.assign(rng.normal(0, 0.2, w.shape).astype(w.dtype.as_numpy_dtype))
    graph_def = suite_models._freeze_fn(lambda x: model(x, training=False),
                                        tf.TensorSpec((1, 64, 64, 3), tf.float32, name="x"))
    with open(out_path, "wb") as f:
        f.write(graph_def.SerializeToString())


def _kecam(name):
    def build():
        import os
        import subprocess
        import sys
        import tempfile
        tf = _tf()
        env = dict(os.environ, TF_USE_LEGACY_KERAS="1")
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "graph.pb")
            r = subprocess.run([sys.executable, os.path.abspath(__file__), "--kecam", name, out],
                               env=env, capture_output=True, text=True)
            if r.returncode != 0:
                raise RuntimeError(r.stderr.strip().splitlines()[-1] if r.stderr.strip() else
                                   "exit %d" % r.returncode)
            graph_def = tf.compat.v1.GraphDef()
            with open(out, "rb") as f:
                graph_def.ParseFromString(f.read())
        return graph_def, {"x": _rand((1, 64, 64, 3), 13)}, {}
    return build


def _kecam_models(m):
    for name in KECAM:
        m["kecam_" + name] = ("keras-cv-attention-models %s (tf.keras 2)" % name, _kecam(name))


# ---------------------------------------------------------------------------------------------
# tf-slim: TF1 image nets (slim.arg_scope, batch norm at inference, VariableV2 / resource
# variables), frozen with tf.compat.v1.graph_util.convert_variables_to_constants.

def _legacy_layers_alias():
    """TensorFlow 2.21's tf.compat.v1.layers.BatchNormalization (slim.batch_norm's layer) loads
    tf_keras.legacy_tf_layers, which tf-keras 2.21 ships as tf_keras.src.legacy_tf_layers."""
    import sys
    try:
        import tf_keras.legacy_tf_layers  # noqa: F401
    except ImportError:
        import tf_keras.src.legacy_tf_layers as legacy
        import tf_keras.src.legacy_tf_layers.normalization  # noqa: F401
        sys.modules["tf_keras.legacy_tf_layers"] = legacy
        sys.modules["tf_keras.legacy_tf_layers.normalization"] = legacy.normalization


def _slim_net(fn_name, size, batch=1, **kw):
    tf = _tf()

    def body(x):
        _legacy_layers_alias()
        import tf_slim as slim
        from tf_slim import nets
        mod_name, fn = fn_name.split(".")
        mod = getattr(nets, mod_name)
        scope = {"inception_v1": nets.inception.inception_v1_arg_scope,
                 "inception_v2": nets.inception.inception_v2_arg_scope,
                 "inception_v3": nets.inception.inception_v3_arg_scope,
                 "resnet_v1": nets.resnet_v1.resnet_arg_scope,
                 "resnet_v2": nets.resnet_v2.resnet_arg_scope,
                 "vgg": nets.vgg.vgg_arg_scope,
                 "alexnet": nets.alexnet.alexnet_v2_arg_scope,
                 "overfeat": nets.overfeat.overfeat_arg_scope}[mod_name]
        with slim.arg_scope(scope()):
            logits, end_points = getattr(mod, fn)(x, is_training=False, **kw)
        return [logits] + [end_points[k] for k in ("Predictions", "AuxLogits") if k in end_points]
    return tf1_graph(body, [("input", (batch, size, size, 3), tf.float32,
                             _rand((batch, size, size, 3), 7))])


def _slim(m):
    m["slim_inception_v1"] = ("tf-slim inception_v1, TF1 graph_util", _slim_net(
        "inception_v1.inception_v1", 224, num_classes=10))
    m["slim_inception_v2"] = ("tf-slim inception_v2 (separable stem), TF1 graph_util",
                              _slim_net("inception_v2.inception_v2", 96, num_classes=10,
                                        depth_multiplier=0.25))
    m["slim_inception_v3"] = ("tf-slim inception_v3 with aux logits, TF1 graph_util",
                              _slim_net("inception_v3.inception_v3", 160, num_classes=10,
                                        depth_multiplier=0.25))
    m["slim_resnet_v1_50"] = ("tf-slim resnet_v1_50, TF1 graph_util", _slim_net(
        "resnet_v1.resnet_v1_50", 64, num_classes=10))
    m["slim_resnet_v2_50"] = ("tf-slim resnet_v2_50, TF1 graph_util", _slim_net(
        "resnet_v2.resnet_v2_50", 64, num_classes=10))
    m["slim_resnet_v1_50_os8"] = ("tf-slim resnet_v1_50 atrous, output_stride 8", _slim_net(
        "resnet_v1.resnet_v1_50", 64, num_classes=10, output_stride=8))
    m["slim_alexnet_v2"] = ("tf-slim alexnet_v2, TF1 graph_util", _slim_net(
        "alexnet.alexnet_v2", 224, num_classes=10))


def add(m):
    """Registers the keras-hub and tf-slim families (those whose library imports) in the
    sweep's model table (name -> (what it is, builder))."""
    try:
        _hub()
    except ImportError as e:
        print("sweep_pypi: keras-hub models left out (%s)" % e)
    else:
        _encoders(m)
        _decoders(m)
        _more_decoders(m)
        _encoder_decoders(m)
        _vision(m)
        _more_vision(m)
    try:
        import keras_cv  # noqa: F401
    except ImportError as e:
        print("sweep_pypi: keras-cv models left out (%s)" % e)
    else:
        _keras_cv(m)
    try:
        import importlib.util
        if importlib.util.find_spec("keras_cv_attention_models") is None or \
                importlib.util.find_spec("tf_keras") is None:
            raise ImportError("keras-cv-attention-models and tf-keras are needed")
    except ImportError as e:
        print("sweep_pypi: keras-cv-attention-models models left out (%s)" % e)
    else:
        _kecam_models(m)
    try:
        import tf_slim  # noqa: F401
    except ImportError as e:
        print("sweep_pypi: tf-slim models left out (%s)" % e)
    else:
        _slim(m)


if __name__ == "__main__":
    import sys
    if len(sys.argv) == 4 and sys.argv[1] == "--kecam":
        _kecam_freeze(sys.argv[2], sys.argv[3])
    else:
        sys.exit("usage: sweep_pypi.py --kecam NAME OUT.pb (run by model_sweep.py)")
