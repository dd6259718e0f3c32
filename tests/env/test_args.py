"""Environment arguments fail at load with the argument's name and allowed values."""

from __future__ import annotations

import pytest

from lae.env.config import parse_env_args
from lae.errors import InvalidInputError


@pytest.mark.parametrize("kwargs,field,hint", [
    ({"source": "labx"}, "source", "'factory' or 'lab'"),
    ({"max_turns": 0}, "max_turns", "greater than or equal to 1"),
    ({"page_chars": 10}, "page_chars", "greater than or equal to 200"),
    ({"false_flag_weight": 2}, "false_flag_weight", "less than or equal to 1"),
    ({"bogus": 1}, "bogus", "allowed arguments"),
])
def test_bad_argument_is_named(kwargs, field, hint):
    with pytest.raises(InvalidInputError) as info:
        parse_env_args(**kwargs)
    text = info.value.report()
    assert f": {field}:" in text and hint in text


def test_defaults_match_the_seed_table():
    args = parse_env_args()
    assert (args.source, args.task_id, args.max_turns, args.page_chars, args.judge_model, args.tasks_root,
            args.allow_unfrozen) == ("factory", "all", 30, 6000, None, None, False)
