"""Cases for errors/sglang/srt/layers/vocab_parallel_embedding.yaml."""

from harness import case

_SETUP = (
    "import json, os, torch\n"
    "import verify_fixtures\n"
    "from sglang.srt.layers.vocab_parallel_embedding import VocabParallelEmbedding\n"
    "def load_embed(config_vocab, weight_rows):\n"
    "    m = verify_fixtures.model_dir('Qwen2ForCausalLM', vocab_size=config_vocab)\n"
    "    verify_fixtures.published_rank0(f'--model-path {m}')\n"
    "    cfg = json.load(open(os.path.join(m, 'config.json')))\n"
    "    with torch.device('meta'):  # shapes only: no 2 GB tables\n"
    "        embed = VocabParallelEmbedding(cfg['vocab_size'], cfg['hidden_size'])\n"
    "        weight = torch.empty(weight_rows, cfg['hidden_size'])\n"
    "    embed.weight_loader(embed.weight, weight)\n"
)

CASES = [
    case(
        "1ea2b6beff7b87b9",
        setup=_SETUP,
        before="load_embed(151936, 151665)  # config vocab_size 151936, weights 151665 rows\n",
        after="load_embed(151665, 151665)  # vocab_size set to the weights' rows\n",
        note="the example's model as a Qwen2 config with the example's vocab_size, published"
        " for rank 0; its embed_tokens (VocabParallelEmbedding as Qwen2Model builds it) gets a"
        " checkpoint tensor of 151665 rows through weight_loader, on the meta device",
    ),
]
