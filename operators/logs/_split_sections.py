"""Which split a record's values are about: the split word before each value (``Test: [ 10/196] ... Loss 5.5``,
``[train] ... loss=110.0, [valid] ... loss=100.0``), in English tags and in the words of languages written
without spaces (``SPLIT_WORDS``), and the validation loss an evaluation record holds."""

from __future__ import annotations

import re
from dataclasses import dataclass

from assay.operators.logs._evaluation_lines import JOINED_COUNT
from assay.operators.logs._names import EVALUATION_WORDS, SPLIT_NAMES, TRAINING_WORDS, is_step_key, key_slug


def evaluation_loss(template: list[str], metrics: dict[int, str], loss_named_elsewhere: bool = False) -> None:
    """On a line about evaluation (``Test: [ 10/196] ... Loss 5.5``, ``| valid on 'valid' subset | loss 4.1``:
    an evaluation word before the loss), the loss is the validation loss, unless the line names one itself. A
    line of sections (ESPnet's ``[train] ... loss=110.0, [valid] ... loss=100.0``) gives each loss the split of
    the nearest section word before it. Any other value after an evaluation word (``testing psnr = 34.2, ssim
    = 0.93``) is the split's too: a record of evaluation values is no training series. Where another line of the
    file names the validation loss itself (``loss_named_elsewhere``), an error on this one (``test mse is 0.008``)
    stays the error it is named."""
    if "val_loss" in metrics.values():
        return
    for at in sorted(metrics):
        section = _section_before(template, at)
        name = metrics[at]
        if section != "eval":
            continue
        if name == "loss":
            metrics[at] = "val_loss"
        elif name == "epoch":
            # the epoch an evaluation reports on (``Evaluation @epoch 1 - batch 3668:``) says where it stands, it
            # is no evaluated value: a line of such counters alone is no record
            del metrics[at]
        elif not key_slug(name).startswith(_SPLIT_PREFIXES):
            # every value of an evaluation record is the split's, its loss terms too (``nll_loss`` of a
            # ``valid:{...}`` record is no training loss, nor its step a training step); only a name that
            # says its own split already (``val_loss``, ``train_acc``) stands as printed
            metrics[at] = f"val_{key_slug(name)}"
        elif key_slug(name).startswith(_OTHER_VAL_PREFIXES):
            # the validation split spelled otherwise (``valid_score``, ``validation_acc``) takes the contract's
            # ``val_`` prefix, as every other value of the record does
            metrics[at] = "val_" + key_slug(name).split("_", 1)[1]
    # an evaluation that prints no loss but the error a loss function computes (3DGS's ``[ITER 7000] Evaluating
    # test: L1 0.0023 PSNR 39.5``): that error is the validation loss, unless the record prints a loss term
    evaluated = [at for at in sorted(metrics) if metrics[at].startswith("val_")]
    if evaluated and not loss_named_elsewhere and not any("loss" in metrics[at] for at in metrics):
        error = next((at for at in evaluated if metrics[at] in _ERROR_LOSSES), None)
        if error is not None:
            metrics[error] = "val_loss"


#: Errors a loss function computes, named as a reconstruction or regression loss is (``L1``, ``MSE``).
_ERROR_LOSSES = {"val_l1", "val_l2", "val_mse"}


#: A name that says its own split: it stands as printed on an evaluation line.
_SPLIT_PREFIXES = tuple(f"{tag}_" for tag in sorted(SPLIT_NAMES))
#: The validation split's other spellings, written ``val_`` on an evaluation line.
_OTHER_VAL_PREFIXES = ("valid_", "validation_", "vali_", "validating_")


@dataclass(frozen=True)
class SplitWord:
    """A word that says which split a line is about in a language written without spaces between its words
    (Chinese, Japanese; Korean glues it to its particles): found inside a token, with a line that uses it."""

    word: str
    split: str  # "eval" or "train"
    example: str


#: Evaluation and training words of other languages, found inside a token (``测试集上的Loss: 262.6`` is a
#: test-set loss). Each ``example`` is a line whose loss is that split's.
SPLIT_WORDS: tuple[SplitWord, ...] = (
    SplitWord("测试", "eval", "整个测试集上的Loss: 230.5"),  # Chinese (simplified): test
    SplitWord("測試", "eval", "測試集 Loss: 230.5"),  # Chinese (traditional): test
    SplitWord("验证", "eval", "验证集损失 loss: 0.82"),  # Chinese (simplified): validation
    SplitWord("驗證", "eval", "驗證集 平均 loss: 0.82"),  # Chinese (traditional): validation
    SplitWord("评估", "eval", "评估结果 loss: 0.82"),  # Chinese (simplified): evaluation
    SplitWord("評估", "eval", "評估結果 loss: 0.82"),  # Chinese (traditional): evaluation
    SplitWord("评测", "eval", "评测集 loss: 0.82"),  # Chinese: benchmark evaluation
    SplitWord("評価", "eval", "評価データ loss: 0.82"),  # Japanese: evaluation
    SplitWord("検証", "eval", "検証データの loss: 0.82"),  # Japanese: validation
    SplitWord("テスト", "eval", "テストデータ loss: 0.82"),  # Japanese: test
    SplitWord("평가", "eval", "평가 데이터 loss: 0.82"),  # Korean: evaluation
    SplitWord("검증", "eval", "검증 세트 loss: 0.82"),  # Korean: validation
    SplitWord("테스트", "eval", "테스트 loss: 0.82"),  # Korean: test
    SplitWord("训练", "train", "训练次数：100, Loss：1.98"),  # Chinese (simplified): training
    SplitWord("訓練", "train", "訓練 loss: 1.98"),  # Chinese (traditional), Japanese: training
    SplitWord("学習", "train", "学習 loss: 1.98"),  # Japanese: learning (training)
    SplitWord("학습", "train", "학습 loss: 1.98"),  # Korean: learning (training)
    SplitWord("훈련", "train", "훈련 loss: 1.98"),  # Korean: training
)


def _words(tokens: list[str]) -> list[str]:
    """The tokens with each run of non-ASCII ones joined: the tokenizer cuts a CJK phrase into its characters
    (``测 试 集 上 的``), and a split word is two or three of them."""
    words: list[str] = []
    for token in tokens:
        if words and not token.isascii() and not words[-1].isascii():
            words[-1] += token
        else:
            words.append(token)
    return words


def _section_before(template: list[str], at: int) -> str | None:
    """The split of the nearest split word before the value at ``at``. A split word that heads an earlier value's
    key (``Val Acc 0.30 | Time(s) 0.04``) names that value only, its field closed by a separator: it opens no
    section for the values after it (``Test Loss 0.6 Acc 0.8`` still reads as one section)."""
    words = _words(template[:at])
    for i in range(len(words) - 1, -1, -1):
        section = _section_of(words[i])
        if not section:
            continue
        # (a counter it heads labels the whole record: ``eval step 250 | nll_loss 2.75`` is all evaluation)
        heads_a_key = (
            i + 2 < len(words)
            and words[i + 1][:1].isalpha()
            and words[i + 2] == "<*>"
            and not is_step_key(words[i + 1])
            and words[i + 1].lower() != "epoch"
        )
        if heads_a_key and not _section_of(words[i + 1]) and _FIELD_ENDS.intersection(words[i + 3 :]):
            continue
        return section
    return None


_FIELD_ENDS = {"|", ",", ";", "│", "┃"}
_TAGGED_SPLIT = re.compile(r"[a-z]+\(([a-z]+)\)")
_JOINED_SPLIT = re.compile(rf"([a-z]+){JOINED_COUNT}")


def _section_of(token: str) -> str | None:
    """``"eval"`` or ``"train"`` for a token that names a split: an English tag as a whole word, a word of
    ``SPLIT_WORDS`` anywhere inside it (the nearest such word to the value decides); an abbreviation's full stop
    (``Val.``, ``Train.``) is no part of the word."""
    word = token.lower().removesuffix(".")
    tagged = _TAGGED_SPLIT.fullmatch(word)
    if tagged:  # the split in a word's parenthesis (mmengine's ``Epoch(val)``, ``Iter(train)``)
        word = tagged.group(1)
    joined = _JOINED_SPLIT.fullmatch(word)
    if joined:  # a record's type, the split joined to what it counts (PySlowFast's ``val_iter``, ``train_epoch``)
        word = joined.group(1)
    if word in EVALUATION_WORDS:
        return "eval"
    if word in TRAINING_WORDS:
        return "train"
    if word.isascii():
        return None
    found = [(word.rfind(w.word), w.split) for w in SPLIT_WORDS if w.word in word]
    return max(found)[1] if found else None
