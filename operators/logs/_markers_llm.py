"""Framework markers of language-model and text tools (rows of ``_frameworks.MARKERS``): the tuning tools that drive
the HF Trainer or DeepSpeed, the language-model training codebases, translation and NLP toolkits.

Each row's pattern is read from the tool's own source (the comment names the file) and carries an own-worded example
line in the tool's shape; ``tests/unit/test_logs_frameworks.py`` runs every example through ``parse_log`` and checks
that no other row's pattern matches it.
"""

from __future__ import annotations

from assay.operators.logs._marker import DS, ELASTIC, HF, Marker

#: Most specific first (``_frameworks``).
LLM_ROWS: tuple[Marker, ...] = (
    # --- tools on top of the HF Trainer / DeepSpeed / torchrun ------------------------------------------------
    Marker(
        "DeepSpeed-Chat",
        r"DeepSpeed-Chat|Total Generation Batches|\|act_loss: *-?[\d.]+\|cri_loss:|step3_rlhf_finetuning",
        "epoch: 1|step: 12|ppo_ep: 1|act_loss: 0.0125|cri_loss: 0.0871|unsuper_loss: 0.0",
        over=(HF, DS, ELASTIC),
    ),
    # ms-swift's trainer dicts carry its own speed and memory keys beside TRL's rewards (it runs TRL's trainers)
    Marker("ms-swift", r"['\"]train_speed\(iter/s\)['\"]: *[\d.]|['\"]memory\(GiB\)['\"]: *[\d.]|\bswift\.llm\b",
           "{'loss': 0.41, 'grad_norm': 1.2, 'learning_rate': 2e-05, 'memory(GiB)': 40.1, "
           "'train_speed(iter/s)': 0.08, 'rewards/chosen': 1.5, 'epoch': 0.3}",
           over=(HF, DS, ELASTIC, "TRL")),
    # TRL by what only its preference and RL trainers log (rewards, log-probabilities, completions); its SFT
    # trainer logs as the HF Trainer does and is read as one
    Marker(
        "TRL",
        r"['\"]rewards/[\w/]+['\"]: *-?[\d.]|['\"]reward_std['\"]: *-?[\d.]|['\"]logps/(?:chosen|rejected)['\"]"
        r"|['\"]completion_length['\"]|\btrl/trainer/"
        r"|\btrl\.trainer\b",
        "{'loss': 0.012, 'grad_norm': 0.31, 'learning_rate': 4e-06, 'rewards/accuracy_reward': 0.5, "
        "'reward': 0.5, 'reward_std': 0.2, 'kl': 0.001, 'epoch': 0.04}",
        over=(HF, DS, ELASTIC),
    ),
    Marker(
        "LLaMA-Factory",
        # (its callback's ``trainer_log.jsonl``: ``{"current_steps": 10, "total_steps": 300, ...}``)
        r"\bllamafactory[./]|\bllmtuner[./]|LLaMA-Factory|^\{\s*\"current_steps\": *\d+, *\"total_steps\": *\d+",
        "[INFO|2025-01-02 10:11:12] llamafactory.model.loader:143 >> all params: 494,032,768",
        over=(HF, DS, ELASTIC),
    ),
    Marker("Unsloth", r"🦥 Unsloth|==\(\(====\)\)== +Unsloth|\bunsloth[./]",
           "==((====))==  Unsloth - 2x faster free finetuning | Num GPUs = 1", over=(HF, DS, ELASTIC)),
    Marker("Axolotl", r"\[axolotl[.\]]|\baxolotl\.(?:train|utils|cli)\b",
           "[2024-05-06 07:08:09,100] [INFO] [axolotl.train.train:170] [PID:42] Starting trainer...",
           over=(HF, DS, ELASTIC)),
    Marker("XTuner", r"\bxtuner[./]", "  File \"/opt/xtuner/xtuner/tools/train.py\", line 342, in main",
           over=(HF, DS, ELASTIC)),
    # FastChat's fine-tuning scripts drive the HF Trainer; its package path names it (lm-sys/FastChat
    # fastchat/train/train.py, train_mem.py, train_lora.py)
    Marker("FastChat", r"\bfastchat/(?:train|model|data)/",
           '  File "/work/FastChat/fastchat/train/train_mem.py", line 13, in <module>', over=(HF, DS, ELASTIC)),
    # GPT-NeoX prints Megatron's iteration line with its own fields (``lm_loss``, the FLOPS estimate)
    Marker("GPT-NeoX", r"\| lm_loss: [\d.Ee+-]+ \||\bapprox flops per GPU: |\bneox_args\b|\bNeoXArgs\b|\bgpt-neox/",
           " samples/sec: 3.10 | iteration       20/  32000 | elapsed time per iteration (ms): 8120.4 | "
           "lm_loss: 3.301E+00 | loss scale: 4096.0 |",
           over=("Megatron-LM", DS, ELASTIC)),
    # InternEvo (the training code first published in the InternLM repository): one ``key=value`` record per step from
    # ``record_current_batch_training_metrics``, its throughput keyed ``tgs (tokens/gpu/second)``
    # (InternLM/InternEvo internlm/train/ and InternLM/InternLM train.py: the ``infos`` dict it logs)
    Marker("InternEvo", r"\btgs \(tokens/gpu/second\)=[\d.]+|\brecord_current_batch_training_metrics\b"
           r"|\binternlm/(?:train|core|solver)/",
           "2024-01-02 03:04:05,600\tINFO training_internlm.py:560 in record_current_batch_training_metrics -- "
           "tflops=151.2,step=40,loss=2.4102,tgs (tokens/gpu/second)=3210.5,lr=3e-05,loss_scale=65536.0",
           # its parallel context came from Colossal-AI's and says so in the same words
           over=(ELASTIC, "Colossal-AI")),
    # --- language-model and text training codebases -----------------------------------------------------------
    # fairseq2's LogMetricRecorder: '<Title> Metrics (step N) - Name: value | Name: value' (facebookresearch/fairseq2
    # src/fairseq2/metrics/recorders/log.py); before fairseq, whose package name it extends
    Marker("fairseq2", r"\b(?:Train|Validation|Evaluation) Metrics \(step \d+\)(?: - [\w/.-]+)? - [A-Z][\w ]*: "
           r"|\bfairseq2[./](?:recipes|models|trainer|metrics|checkpoint|gang|setup)\b",
           "[01/02/24 03:04:05] INFO fairseq2.recipes - Train Metrics (step 40) - Loss: 2.311 | Gradient Norm: 1.02 | "
           "Learning Rate: 3e-05", over=(ELASTIC,)),
    Marker("fairseq", r"\bfairseq(?:_cli)?\.(?:train|trainer|tasks|models|data|utils|checkpoint_utils"
           r"|distributed)\b|\| fairseq\.|\| INFO \| train_inner \||\bepoch \d{3}:\s+\d+ / \d+ loss="
           r"|\| valid on '\w+' subset \|",
           "2022-07-08 09:10:11 | INFO | fairseq.trainer | begin training epoch 4",
           over=(ELASTIC,)),
    # XNMT's experiment runner opens with its revision and host, and its training regimen prints each report as
    # '[<experiment>] Epoch 0.0739: train_loss/word=...' (neulab/xnmt xnmt_run_experiments.py, xnmt/train/regimens.py)
    Marker("XNMT", r"^running XNMT revision \w+ on |^\[[\w.-]+\] Epoch \d+\.\d+: train_loss/word=",
           "running XNMT revision 1a2b3c4 on node17 with PyTorch on 2023-01-02 03:04:05"),
    Marker("torchtune", r"\btorchtune\.(?:utils|training|recipes|modules)\b|\btokens_per_second_per_gpu\b|(?:^|\]:)\d+\|\d+\|Loss: [\d.na]+",
           "Step 12 | loss:1.84 lr:2e-05 tokens_per_second_per_gpu:512.3",
           over=(ELASTIC,)),
    Marker("LitGPT", r"\blitgpt[./]|\blit_gpt[./]|\| loss train: [\d.]+, val: |\biter time: [\d.]+ ?ms \((?:optimizer\.step|opt\.step)\)",
           "Epoch 1 | iter 40 step 10 | loss train: 1.912, val: n/a | iter time: 310.22 ms (step)",
           over=(ELASTIC,)),
    # LLM Foundry trains through Composer; its package names it (mosaicml/llm-foundry llmfoundry/command_utils/train.py)
    Marker("LLM Foundry", r"\bllmfoundry[./](?:command_utils|callbacks|models|data|utils|registry|train)\b",
           '  File "/usr/lib/python3/dist-packages/llmfoundry/command_utils/train.py", line 520, in train',
           over=(ELASTIC,)),
    Marker("Composer", r"\bcomposer\.(?:trainer|core|callbacks|utils|algorithms)\b|^\s*Train time/batch: \d"
           r"|Train loss/train/total: ",
           "\t Train time/batch: 40", over=(ELASTIC,)),
    # OLMo-core, AI2's training library apart from the OLMo repository (allenai/OLMo-core: its package is
    # ``olmo_core``, its trainer's callbacks log under ``olmo_core.train.callbacks``)
    Marker("OLMo-core", r"\bolmo_core\.(?:train|utils|nn|optim|data|launch|distributed)\b",
           "[2025-01-02 03:04:05] INFO     [olmo_core.train.trainer:880, rank=0] Saving checkpoint to step40",
           over=(ELASTIC,)),
    Marker("OLMo", r"\bolmo\.(?:train|util|model|optim|data)\b",
           "olmo.train:1021  INFO    [step=300/10000,epoch=0]", over=(ELASTIC,)),
    Marker("OpenNMT", r"\bonmt\.(?:trainer|utils|bin|models)\b|\bStep \d+/ *\d+; acc: *[\d.]+; ppl: *[\w.]+; xent:"
           r"|\bopennmt\.|\bStep = \d+ ; steps/s = ",
           "[2020-01-02 03:04:05,678 INFO] Step 800/20000; acc:  41.20; ppl: 12.40; xent: 2.52; lr: 0.00100",
           over=(ELASTIC,)),
    Marker("modded-nanogpt", r"\bstep:\d+/\d+ (?:train_loss|val_loss):[\d.na]+ train_time:\d+ms step_avg:",
           "step:120/3000 train_loss:4.1022 train_time:25120ms step_avg:209.33ms"),
    Marker("MLX LM", r"\bmlx_lm[./]|\bIter \d+: Train loss [\d.na]+, (?:Learning Rate|It/sec)",
           "Iter 30: Train loss 1.904, Learning Rate 2.000e-05, It/sec 0.512, Tokens/sec 410.2"),
    # ParlAI's training report: its bracketed timing header before the metrics dict, and its task lines
    Marker("ParlAI", r"\[ time:[\d.]+s total_exs:\d+ epochs:[\d.]+|^\[creating task\(s\): [\w:]+\]|\bparlai[./]",
           "[ time:12.0s total_exs:5120 epochs:0.75 time_left:40.0s ] {'exs': 512, 'loss': 2.31, 'ppl': 10.1}"),
    # llama-recipes' training bar: its description carries the step and the loss
    Marker("llama-recipes", r"\bTraining Epoch: \d+/\d+, step \d+/\d+ completed \(loss: [\d.na]+\)|\bllama_recipes[./]",
           "Training Epoch: 2/4, step 7/120 completed (loss: 0.8841):   6%|▌         | 7/120 [00:30<08:10]"),
    Marker("veRL", r"(?:^|\s- )(?:actor/pg_loss|critic/vf_loss|actor/ppo_kl|critic/score/mean):-?[\d.na]",
           "step:12 - actor/pg_loss:-0.021 - actor/entropy_loss:0.51 - critic/score/mean:0.44 - timing_s/gen:8.1"),
    Marker("OpenRLHF", r"^\((?:ActorModel|CriticModel|RewardModel|ReferenceModel|LLM)RayActor pid=\d+",
           "(ActorModelRayActor pid=4242) Train epoch [1/2]:  50%|#####     | 8/16 [01:00<01:00, pg=0.01, kl=0]"),
    Marker("trlx", r"^\[rollout \d+ / \d+\]:", "[rollout 3 / 8]:  38%|###8      | 3/8 [00:09<00:15,  3.10s/it]"),
    # NeMo-Aligner drives NeMo's trainer; its package names it (NVIDIA/NeMo-Aligner nemo_aligner/algorithms/)
    Marker("NeMo-Aligner", r"\bnemo_aligner[./](?:algorithms|models|utils|data)\b",
           '  File "/opt/NeMo-Aligner/nemo_aligner/algorithms/dpo.py", line 240, in fit',
           over=("NeMo", "PyTorch Lightning", ELASTIC)),
    # LMFlow's pipelines drive the HF Trainer; its package names it (OptimalScale/LMFlow src/lmflow/pipeline/finetuner.py)
    Marker("LMFlow", r"\blmflow[./](?:pipeline|models|datasets|utils|args)\b",
           '  File "/work/LMFlow/src/lmflow/pipeline/finetuner.py", line 560, in tune', over=(HF, DS, ELASTIC)),
    Marker("NeMo AutoModel", r"\| step \d+ \| epoch \d+ \| loss [\d.]+ \|.*\| tps [\d.]+\([\d.]+/gpu\)",
           "2025-01-02 03:04:05 | INFO | root | step 7 | epoch 0 | loss 1.0210 | lr 1.00e-05 | tps 4200.1(525.0/gpu)"),
    # Paxml (Pax) marks its own progress lines '[PAX STATUS]' (google/paxml paxml/programs.py, main.py)
    Marker("Paxml", r"\[PAX STATUS\]", "I0203 04:05:06.700000 1401 programs.py:366] [PAX STATUS]: train_step() took 0.611 "
           "seconds."),
    Marker("MaxText", r"\bcompleted step: \d+, seconds: [\d.]+, TFLOP/s/device:|\bMaxText\b|\bmaxtext/",
           "I0203 04:05:06.700000 1401 metric_logger.py:190] completed step: 7, seconds: 1.204, "
           "TFLOP/s/device: 210.5, loss: 9.812"),
    Marker("PaddleNLP", r"\bpaddlenlp[./]", "[2023-06-07 08:09:10,111] [    INFO] - paddlenlp.trainer loaded",
           over=(HF, ELASTIC)),  # its Trainer is a port of the HF Trainer's and logs as it does
    Marker("Marian", r"\bEp\. \d+ : Up\. \d+ : Sen\. [\d,]+ : Cost [\d.]+",
           "[2021-02-03 04:05:06] Ep. 2 : Up. 4000 : Sen. 1,204,311 : Cost 3.4102 : Time 210.2s : 18200.5 words/s"),
    # Sockeye (1.x) trains through MXNet's module API and prints its speedometer line
    Marker("Sockeye", r"\bsockeye\.(?:training|train|model)\b",
           "[INFO:sockeye.training] Epoch[1] Batch [500]\tSpeed: 910.2 samples/sec\tperplexity=48.1", over=("MXNet",)),
    Marker("AllenNLP", r"\ballennlp\.(?:training|commands|models|data)\b",
           "2020-01-02 03:04:05,678 - INFO - allennlp.training.trainer - Epoch 1/20"),
    Marker("T5X", r"\bt5x[./](?:train|trainer|checkpoints|utils)\b",
           "I0304 05:06:07.800000 1403 trainer.py:512] t5x.trainer: Training step 1000 completed"),
    Marker("Levanter", r"\blevanter[./](?:trainer|main|checkpoint|models)\b",
           "2024-02-03 04:05:06,700 - levanter.trainer - INFO - Saving checkpoint at step 500"),
    Marker("Flair", r"(?:^|[\d,] )epoch \d+ - iter \d+/\d+ - loss [\d.]+|(?:^|[\d,] )EPOCH \d+ done: loss [\d.]+ - lr",
           "2020-01-02 03:04:05,600 epoch 3 - iter 120/400 - loss 0.2210 - samples/sec: 88.1"),
    Marker("fastText", r'^\{"progress":[\d.]+,"loss":[\d.]+,"lr":', '{"progress":12.5,"loss":1.2031,"lr":0.04,"words":900}'),
    # spaCy's training table: 'E', '#', a 'LOSS <pipe>' column per pipe, the scores, 'SCORE', upper-cased
    # (explosion/spaCy spacy/training/loggers.py console_logger)
    Marker("spaCy", r"^\s*E\s+#\s+(?:LOSS \S+\s+)+.*\bSCORE\s*$",
           "  E    #       LOSS TOK2VEC  LOSS NER  ENTS_F  ENTS_P  ENTS_R  SCORE "),
)
