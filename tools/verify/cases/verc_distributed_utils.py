"""Cases for errors/sglang/srt/distributed/utils.yaml: divisibility of a model dimension by
the tensor-parallel size, checked while TP rank 0 builds the model."""

from harness import case

# TransformersForCausalLM (--model-impl transformers) builds one RadixAttention per layer
# with divide(num_heads, tp_size) and divide(num_kv_heads, tp_size). The model object is made
# with object.__new__ and the attributes _create_attention_instances reads (configs from the
# launch's model config, the layer range, no quantization); the transformers model inside is
# an empty module (not encoder-only). Server args published for TP rank 0 first.
ATTENTION = """\
import torch
import verify_fixtures
verify_fixtures.stub_sgl_kernel()
from sglang.srt.configs.model_config import ModelConfig
from sglang.srt.models.transformers import TransformersForCausalLM

def attention_layers(flags):
    server_args = verify_fixtures.published_rank0(flags)
    config = ModelConfig.from_server_args(server_args).hf_config
    model = object.__new__(TransformersForCausalLM)
    torch.nn.Module.__init__(model)
    model.config, model.text_config = config, config.get_text_config()
    model.model = torch.nn.Module()
    model.start_layer, model.end_layer = 0, config.num_hidden_layers
    model.quant_config = None
    return model._create_attention_instances()

MODEL = "--model-path Qwen/Qwen2.5-7B-Instruct --model-impl transformers"
"""

CASES = [
    case(
        "78bdfffbae60c0b2",
        setup=ATTENTION,
        before='attention_layers(MODEL + " --tp-size 8")\n',
        after='attention_layers(MODEL + " --tp-size 4 --dp-size 2")\n',
        note="the example's launch commands, then TP rank 0 building the transformers"
        " backend's attention layers for Qwen2.5-7B (28 heads, 4 KV heads)",
    ),
]
