"""Framework markers of speech, reinforcement-learning, recommendation, tabular and numeric-computing tools (rows
of ``_frameworks.MARKERS``).

Each row's pattern is read from the tool's own source (the comment names the file) and carries an own-worded example
line in the tool's shape; ``tests/unit/test_logs_frameworks.py`` runs every example through ``parse_log`` and checks
that no other row's pattern matches it.
"""

from __future__ import annotations

from assay.operators.logs._marker import ELASTIC, Marker

#: Most specific first (``_frameworks``).
SPEECH_RL_ROWS: tuple[Marker, ...] = (
    # --- speech -----------------------------------------------------------------------------------------------
    Marker("ESPnet", r"\bespnet2?[./](?:bin|tasks|train|asr|tts)\b|\b\d+epoch:train:\d+-\d+batch: "
           r"|\b\d+epoch results: \[train\]|\((?:trainer|reporter|abs_task):\d+\) INFO: "
           r"|\bmain/loss_(?:ctc|att)\b",
           "[node0] 2023-02-03 04:05:06,789 (trainer:732) INFO: 3epoch:train:201-300batch: iter_time=0.1, loss=41.2",
           over=(ELASTIC,)),
    # its recipes' train.py log ``Epoch {e}, batch {b}, loss[{loss_info}], tot_loss[{tot_loss}], ...``, each a
    # MetricsTracker printed as ``name=value, ..., over N frames.`` (k2-fsa/icefall egs/*/ASR/*/train.py)
    Marker("icefall", r"\bicefall[./]|(?:^|\s)(?:INFO|WARNING|DEBUG|ERROR) \[[\w.]+\.py:\d+\] \(\d+/\d+\) "
           r"|\bloss\[[^\]\n]*\bover [\d.]+ frames\.?\], tot_loss\[",
           "2022-05-06 07:08:09,101 INFO [train.py:812] (2/4) Epoch 3, batch 450, loss[loss=0.21, over 900 frames]",
           over=(ELASTIC,)),
    Marker("SpeechBrain", r"\bspeechbrain\.(?:core|utils|dataio)\b",
           "speechbrain.utils.train_logger - epoch: 4, lr: 1.0e-03 - train loss: 1.21 - valid loss: 1.35"),
    Marker("Coqui TTS", r"--> STEP: \d+/\d+ -- GLOBAL_STEP: \d+|^\s*\| > (?:loss|grad_norm)\w*: [\d.]+ +\(",
           "   --> STEP: 12/300 -- GLOBAL_STEP: 40012"),
    Marker("WeNet", r"\b(?:TRAIN|CV) Batch \d+/\d+ loss [\d.]+ loss_att [\d.]+ loss_ctc",
           "2024-01-02 03:04:05,600 DEBUG TRAIN Batch 2/1200 loss 40.1 loss_att 35.2 loss_ctc 51.3 lr 0.0008 rank 0"),
    Marker("PaddleSpeech", r"\] Train: Rank: \d+, epoch: \d+, step: \d+, batch ?: \d+/\d+",
           "[INFO 2022/01/02 03:04:05 trainer.py:180] Train: Rank: 0, epoch: 2, step: 900, batch : 12/400, lr: 0.001"),
    # --- reinforcement learning -------------------------------------------------------------------------------
    # Sample Factory's runner reports throughput over three windows and the frames so far
    # (alex-petrenko/sample-factory sample_factory/algo/runners/runner.py print_stats)
    Marker("Sample Factory", r"\bFps is \(\d+ sec: [\d.na]+, \d+ sec: [\d.na]+, \d+ sec: [\d.na]+\)\. Total num frames: \d+"
           r"|\bsample_factory/(?:algo|algorithms|train|utils)/",
           "[2024-05-06 07:08:09,100][04242] Fps is (10 sec: 4096.0, 60 sec: 3980.2, 300 sec: 3900.7). Total num frames: "
           "1228800. Throughput: 0: 1024.0. Samples: 1228800. Policy #0 lag: (min: 0.0, avg: 1.2, max: 3.0)"),
    # CleanRL's single-file agents print each finished episode and the rate (vwxyzjn/cleanrl cleanrl/ppo.py:
    # 'global_step=..., episodic_return=...', 'SPS:')
    Marker("CleanRL", r"^global_step=\d+, episodic_return=\[?-?[\d.]+|\bcleanrl/\w+\.py\b",
           "global_step=20480, episodic_return=[42.]"),
    # RSL-RL's on-policy runner prints a centred 'Learning iteration N/M' block; its rate line is its own
    # (leggedrobotics/rsl_rl rsl_rl/runners/on_policy_runner.py log: 'Computation: N steps/s (collection: ..., learning ...)')
    Marker("RSL-RL", r"\bsteps/s \(collection: [\d.]+s, learning [\d.]+s\)|\brsl_rl/(?:runners|algorithms|modules)/",
           "                       Computation: 48211 steps/s (collection: 1.602s, learning 0.436s)"),
    # Acme's TerminalLogger: '[Label] Key = value | Key = value', the label and the keys title-cased
    # (google-deepmind/acme acme/utils/loggers/terminal.py serialize)
    Marker("Acme", r"\[(?:Learner|Actor|Evaluator|Environment Loop|Train|Eval)\] (?:[A-Z]\w*(?: [A-Z\d]\w*)* = [^|\n]+ \| )+"
           r"[A-Z]\w*(?: [A-Z\d]\w*)* = |\bacme/(?:agents|jax|tf|utils)/",
           "I0304 05:06:07.800000 140 terminal.py:91] [Learner] Critic Loss = 0.412 | Learner Steps = 2000 | "
           "Policy Loss = -1.204 | Walltime = 310.2"),
    # Keras-RL's training callbacks (keras-rl/keras-rl rl/callbacks.py: TrainIntervalLogger, TrainEpisodeLogger);
    # before Keras, whose progress bar they draw
    Marker("Keras-RL", r"^Interval \d+ \(\d+ steps performed\)|^\d+ episodes - episode_reward: -?[\d.]+ \["
           r"|^\s*\d+/\d+: episode: \d+, duration: [\d.]+s, episode steps: ",
           "Interval 4 (30000 steps performed)"),
    # Dopamine's runner, through absl (google/dopamine dopamine/discrete_domains/run_experiment.py _run_train_phase)
    Marker("Dopamine", r"\bAverage undiscounted return per (?:training|evaluation) episode: "
           r"|\bdopamine/(?:discrete_domains|agents|jax|replay_memory)/",
           "I0102 03:04:05.600000 1401 run_experiment.py:420] Average undiscounted return per training episode: 11.84"),
    # Tianshou's trainer ends each epoch with the test reward and the best so far, '±' its spread
    # (thu-ml/tianshou tianshou/trainer/base.py: 'Epoch #N: test_reward: ... ± ..., best_reward: ...')
    Marker("Tianshou", r"^Epoch #\d+: test_reward: -?[\d.]+(?: ± [\d.]+)?, best_reward: |\btianshou/(?:trainer|policy|data)/",
           "Epoch #3: test_reward: 187.500000 ± 12.100000, best_reward: 200.000000 ± 0.000000 in #2"),
    # (a result dict at the line's start, or indented under Tune's ``Result for PPO_CartPole_00000:``)
    Marker("RLlib", r"^ {0,4}timesteps_total: \d+\s*$|^ {0,4}episode_reward_mean: -?[\d.]+\s*$", "  episode_reward_mean: 21.5"),
    # OpenAI Baselines' logger table with its PPO2 keys (openai/baselines baselines/ppo2/ppo2.py: misc/serial_timesteps,
    # misc/nupdates, eprewmean, eplenmean)
    Marker("OpenAI Baselines", r"^\|\s+(?:misc/(?:serial_timesteps|nupdates|total_timesteps)|eprewmean|eplenmean)\s+\|",
           "| misc/serial_timesteps   | 2048        |"),
    Marker("Stable-Baselines3", r"^\|\s+(?:rollout|time|train)/\s+\|\s+\||\|\s+ep_rew_mean\s+\|",
           "|    ep_rew_mean     | 21.4     |"),
    # --- recommendation, tabular and classic learners ---------------------------------------------------------
    # no other tool prints in that form ---------------------------------------------------------------------
    Marker("skorch", r"^\s*epoch +train_loss +(?:\w+ +)*dur\s*$",
           "  epoch    train_loss    valid_acc    valid_loss     dur"),
    Marker("RecBole", r"\bepoch \d+ training \[time: [\d.]+s, train loss: |\bepoch \d+ evaluating \[time: [\d.]+s, "
           r"valid_score: ",
           "Mon 01 Jan 2024 10:00:00 INFO  epoch 4 training [time: 12.30s, train loss: 310.2201]"),
    # Flower's federated server announces itself and each round (flwr's ``start_server``, the ServerApp)
    Marker("Flower", r"\bStarting Flower (?:server|ServerApp|simulation)\b|\bFlower ECE: gRPC server running\b"
           r"|\bflwr\.(?:server|client|simulation)\b",
           "INFO :      Starting Flower server, config: num_rounds=5, no round_timeout"),
    Marker("DLRM", r"^Finished training it \d+/\d+ of epoch \d+, [\d.]+ ms/it, loss ",
           "Finished training it 200/4000 of epoch 1, 88.10 ms/it, loss 0.471200"),
    Marker("fastai", r"^epoch +train_loss +valid_loss\b", "epoch     train_loss  valid_loss  accuracy  time"),
    # XGBoost's evaluation line: '[round]' then tab-separated 'data-metric:value' (dmlc/xgboost
    # python-package/xgboost/callback.py: '[%d]\t%s' over _fmt_metric)
    Marker("XGBoost", r"^\[\d+\]\t[\w.]+-[\w@:.-]+:-?[\d.]+(?:e-?\d+)?(?:\t|$)|\bWill train until [\w.]+-[\w@:.-]+ hasn't improved",
           "[40]\ttrain-rmse:0.41021\tvalidation-rmse:0.52310"),
    # LightGBM's own bracketed logger (microsoft/LightGBM: '[LightGBM] [Info] ...' from its C++ core). Its evaluation
    # line ("[N]\tvalid_0's l2: ...", python-package/lightgbm/callback.py) is left out: packages built like it print
    # it under their own bracketed logger, which then names them (_packages)
    Marker("LightGBM", r"^\[LightGBM\] \[(?:Info|Warning|Fatal|Debug)\]",
           "[LightGBM] [Info] Number of data points in the train set: 8000, number of used features: 28"),
    # Catalyst's progress bars are described '<epoch>/<epochs> * Epoch (<loader>)', its older console logger
    # '<epoch> * Epoch (<loader>) metrics:' (catalyst-team/catalyst: its tqdm callback, its old ConsoleLogger)
    Marker("Catalyst", r"\b\d+/\d+ \* Epoch \(\w+\)|\b\d+ \* Epoch \(\w+\) metrics: ",
           "1/10 * Epoch (train): 100% 469/469 [00:12<00:00, 38.11it/s, accuracy01=0.912, loss=0.301]"),
    # CatBoost's iteration line: 'N:' then learn/test values, tab-separated, the time passed and left
    # (catboost/catboost catboost/libs/logging: '\ttotal: ...', '\tremaining: ...')
    Marker("CatBoost", r"^\d+:\t(?:learn|test): -?[\d.]+[^\n]*\ttotal: [^\t]+\tremaining: ",
           "120:\tlearn: 0.4012311\ttest: 0.4420127\tbest: 0.4401000 (98)\ttotal: 3.21s\tremaining: 23.5s"),
    # pytorch-tabnet: the fitted model's repr, the device it says it uses, its early-stopping callback's closing
    # message (dreamquark-ai/tabnet pytorch_tabnet/abstract_model.py: 'Device used : {device}'; callbacks.py
    # EarlyStopping: 'Early stopping occurred at epoch ... with best_epoch = ... and best_<metric> = ...',
    # 'Stop training because you reached max_epochs = ...')
    Marker("TabNet", r"\bTabNet(?:Classifier|Regressor|MultiTaskClassifier|Pretrainer)\(\w+=|^Device used : (?:cuda|cpu|mps)\b"
           r"|\bEarly stopping occurred at epoch \d+ with best_epoch = \d+ and best_\w+ = "
           r"|\bStop training because you reached max_epochs = \d+",
           "Early stopping occurred at epoch 41 with best_epoch = 31 and best_valid_auc = 0.93104"),
    # Deeplearning4j's listeners log under its package (org.deeplearning4j.optimize.listeners), which logback
    # abbreviates to its initials (deeplearning4j/deeplearning4j ScoreIterationListener: 'Score at iteration {} is {}')
    Marker("Deeplearning4j", r"\borg\.deeplearning4j\.|\bo\.d\.o\.l\.\w+Listener\b",
           "10:11:12.345 [main] INFO  o.d.o.l.ScoreIterationListener - Score at iteration 40 is 0.6931"),
    # MATLAB's toolboxes, closed source, as their documentation shows the command window: ``train`` (shallow
    # networks) names its training function (``Training with TRAINLM.``, ``... completed: Performance goal
    # met.``) and prints ``Epoch n/N, Time t, Performance p/goal, ...``; ``trainNetwork`` says where it trains and
    # draws its progress table (``| Epoch | Iteration | Time Elapsed | ...``)
    Marker("MATLAB", r"^Training with TRAIN[A-Z]+(?:\.$| completed: )|^Epoch \d+/\d+, Time [\d.]+, Performance "
           r"|^Training on (?:single|multiple) (?:CPU|GPU)s?\.|^\|\s*Epoch\s*\|\s*Iteration\s*\|\s*Time Elapsed",
           "Epoch 40/500, Time 2.31, Performance 0.0412/0, Gradient 0.0871/1e-07, Mu 0.0001/1e+10"),
    # DeepXDE's training display: its header row, the summary of the best step, and its timing decorator's
    # ``'compile' took 0.5 s`` (lululxvi/deepxde deepxde/display.py TrainingDisplay, deepxde/utils timing)
    Marker("DeepXDE", r"^Step\s+Train loss\s+Test loss\s+Test metric\s*$|^Best model at step \d+:$"
           r"|^'(?:compile|train|restore)' took [\d.]+ s",
           "Step      Train loss              Test loss               Test metric"),
)
