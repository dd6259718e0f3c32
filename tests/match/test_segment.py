"""Structure: headings, list items, table rows with their header, recital and declined sections."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lae.match.segment import _WORD_BEFORE_RE, _word_before, segment

MEMO = """# Lease memo

## 1. Background

The lease started in 2021.

## 2. Issues

**Renewal option**

The deadline is close. It could lapse.

The following steps are needed:

- send the notice
- calendar the date

| Issue | Risk |
|---|---|
| Renewal option | High |

## Points not escalated

The parking addendum.

3. Indemnity
"""


def test_blocks_sections_and_units():
    seg = segment(MEMO)
    kinds = [(b.kind, seg.text[b.start:b.end]) for b in seg.blocks]
    assert kinds[0] == ("heading", "lease memo")
    assert ("heading", "**renewal option**") in kinds
    assert ("heading", "3. indemnity") in kinds
    by_text = {seg.text[b.start:b.end]: b for b in seg.blocks}
    assert by_text["the lease started in 2021."].section == "recital"
    assert by_text["the parking addendum."].section == "declined"
    item = by_text["send the notice"]
    assert item.kind == "item" and seg.text[seg.blocks[item.lead_in].start:seg.blocks[item.lead_in].end].endswith(":")
    row = by_text["| renewal option | high |"]
    assert row.kind == "row" and seg.blocks[row.header].cells and len(row.cells) == 2
    assert "| issue | risk |" in by_text and "|---|---|" not in by_text
    para = by_text["the deadline is close. it could lapse."]
    assert [seg.text[u.start:u.end] for u in seg.units if u.block == para.index] == ["the deadline is close.", "it could lapse."]
    assert seg.blocks[para.headings[-1]].level == 4


def test_abbreviations_do_not_end_sentences():
    seg = segment("Under 29 U.S.C. § 2102 and s. 151 of Acme Inc. the notice is late. It must go out.")
    assert len(seg.units) == 2


def test_a_schedule_or_part_reference_does_not_end_a_sentence():
    seg = segment("It breaches Sched. 3 para 2.3 and Pt. 4 of the plan. High. Fix it.")
    assert [seg.text[u.start:u.end] for u in seg.units] == [
        "it breaches sched. 3 para 2.3 and pt. 4 of the plan.", "high.", "fix it."]


def test_no_ends_a_sentence_unless_a_number_follows():
    seg = segment("The committee cannot say no. We disagree. See No. 3 and s. 151 of the Act.")
    assert [seg.text[u.start:u.end] for u in seg.units] == [
        "the committee cannot say no.", "we disagree.", "see no. 3 and s. 151 of the act."]


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="ab. Q1", max_size=120), st.integers(0, 120))
def test_the_word_before_a_full_stop_is_found_as_a_search_from_the_sentence_start_finds_it(text, cut):
    """The windowed search gives what a search over the whole sentence gives, runs of letters and
    dots longer than the window included."""
    text = "a" * 50 + "." * 10 + text
    end = min(cut + 60, len(text))
    for start in (0, 30, end):
        want = _WORD_BEFORE_RE.search(text, start, end)
        got = _word_before(text, start, end)
        assert (got.span(), got.group(1)) == (want.span(), want.group(1)) if want else got is None


def test_a_long_run_before_a_full_stop_is_not_read_as_an_abbreviation():
    """"abc", forty-five dots, "s." is one run of letters and dots, not the abbreviation "s." (which
    before a number would join the sentences): its last characters alone would read as one."""
    text = "The clause is void abc" + "." * 45 + "s. 151 applies here."
    units = segment(text).units
    assert len(units) == 2


@pytest.mark.parametrize("title,kind", [
    ("Chronology", "recital"), ("Timeline of events", "recital"), ("Key dates", "recital"),
    ("Action timeline with the legal reason for each step", "analysis"),
    ("Timeline of required actions", "recommendations"), ("Actions timeline", "recommendations"),
])
def test_a_timeline_of_things_to_do_is_not_a_recital(title, kind):
    seg = segment(f"# {title}\n\nThe renewal notice is late and must be served by Friday.")
    assert seg.blocks[1].section == kind


@pytest.mark.parametrize("title,kind", [
    ("Data-room index: Project Harbor", "recital"), ("Virtual data room -- index of contents", "recital"),
    ("Document register, production volume 1", "recital"), ("Harbor matter file: document index", "recital"),
    ("Data room review: risks in the Harbor lease", "analysis"), ("Index of issues", "analysis"),
])
def test_an_index_of_the_documents_describes_them(title, kind):
    seg = segment(f"# {title}\n\n## 01 Lease\n\nThe renewal notice is late and must be served by Friday.")
    assert seg.blocks[-1].section == kind


@pytest.mark.parametrize("title,kind", [
    ("Glossary", "recital"), ("Glossary of defined terms", "recital"), ("Definitions and glossary", "recital"),
    ("A-to-Z Issues Glossary: Harbor lease", "analysis"), ("Harbor: A-to-Z Glossary of Lease and Tenancy Issues", "analysis"),
    ("Risks glossary", "analysis"),
])
def test_a_glossary_of_issues_is_not_a_glossary_of_terms(title, kind):
    # each entry of an issues glossary is a point about this matter, not a defined term
    seg = segment(f"# {title}\n\n- **Renewal** - the renewal notice is arguably late and must be served by Friday.")
    assert seg.blocks[-1].section == kind


@pytest.mark.parametrize("title,kind", [
    ("The file", "recital"), ("What the documents say", "recital"), ("The documents (numbered as in the data room)",
                                                                      "recital"),
    ("Part 2. The record", "recital"),
    ("What the file shows", "analysis"), ("The file's three defects", "analysis"), ("Problems in the file", "analysis"),
])
def test_a_heading_naming_only_the_record_heads_a_description_of_it(title, kind):
    seg = segment(f"# {title}\n\nThe renewal notice is late and must be served by Friday.")
    assert seg.blocks[-1].section == kind


def test_a_chat_log_joined_into_one_paragraph_is_one_block_per_message():
    # a renderer joins a Markdown chat log's lines into one paragraph; a reader still sees messages
    seg = segment("16:20 read the file. worst first 16:21 the release is void 16:24 the deadline is fine\n\n"
                  "The board met at 9:30 and again at 11:15 and 14:00.")
    blocks = [seg.text[b.start:b.end] for b in seg.blocks]
    assert blocks == ["16:20 read the file. worst first", "16:21 the release is void", "16:24 the deadline is fine",
                      "the board met at 9:30 and again at 11:15 and 14:00."]
    assert [seg.text[u.start:u.end] for u in seg.units if u.block == 0] == ["16:20 read the file.", "worst first"]


@pytest.mark.parametrize(("line", "content"), [
    ("[07:15] Tobias Renner: Those are exactly the facts.", "those are exactly the facts."),
    ("**[06:58] Tobias Renner:** Devin, morning.", "devin, morning."),
    ("08:02 Ingrid Halvorsen (GC): The hold is late.", "the hold is late."),
    ("9:05 am Dana: That notice is void.", "that notice is void."),
    ("Maya Okafor (16:02): carteret is worse.", "carteret is worse."),
    ("**Ben Tillery** [4:10 pm]: the hold is late", "the hold is late"),
    # not a speaker: a lower-case word before the colon, no clock time, or a name too long to be one
    ("16:21 biggest thing: the hold is late", "16:21 biggest thing: the hold is late"),
    ("Tobias Renner: the hold is late", "tobias renner: the hold is late"),
    ("Section 4 (16:02): the hold is late", "section 4 (16:02): the hold is late"),
    ("08:02 The Board Of The Company Met: it is void", "08:02 the board of the company met: it is void"),
])
def test_a_chat_messages_clock_and_speaker_are_not_its_text(line, content):
    seg = segment(f"Earlier message.\n\n{line}")
    block = seg.blocks[-1]
    assert seg.text[block.start:block.end] == content
    assert min(u.start for u in seg.units if u.block == block.index) == block.start  # sentences start there too


def test_a_speakers_run_of_chat_messages_is_one_turn_with_the_message_it_answers():
    seg = segment("[07:01] Tobias Renner: One: the side letter.\n\n[07:02] Tobias Renner: It does not bind.\n\n"
                  "[07:03] Devin Asante: Noted.\n\n[07:04] Tobias Renner: Two: the fee.\n\n"
                  "[07:05] tobias renner: lower case is no speaker.\n\n[07:06] Devin Asante: After a non-message.")
    assert seg.turn_of(0) == seg.turn_of(1) == (0, 1)
    assert seg.turn_of(2) == (1, 2)  # a reply reads with the message it answers
    assert seg.turn_of(3) == (2, 3)
    assert seg.turn_of(4) == ()  # not a message
    assert seg.turn_of(5) == ()  # nothing answered: the block before is no message


def test_a_reply_in_a_name_first_chat_reads_with_the_message_it_answers():
    seg = segment("Maya Okafor (16:08): castellan sent the nonrenewal letter in december\n\n"
                  "Ben Tillery (16:09): not sudden or dramatic, not even close")
    assert [seg.text[b.start:b.end] for b in seg.blocks] == ["castellan sent the nonrenewal letter in december",
                                                              "not sudden or dramatic, not even close"]
    assert seg.turn_of(1) == (0, 1)


@pytest.mark.parametrize(("header", "section"), [
    ("| Field | Value as written |", "recital"), ("| Speaker | Record |", "recital"), ("| Name | Role |", "recital"),
    ("| Custodian | Why included |", "recital"), ("| Date | Event |", "recital"), ("| Term | Meaning |", "recital"),
    ("| Item | Why | Action |", "analysis"), ("| Issue | Facts | Risk |", "analysis"), ("| Topic | RAG |", "analysis"),
    ("| Date | Event | Source | Note on the source |", "recital"),
    # a calendar or tracker assesses each row: what applies, its status, its risk
    ("| Date | Obligation or event | Applies to this matter? | Note |", "analysis"),
    ("| Date | Item | Status | Owner |", "analysis"), ("| Name | Role | Risk |", "analysis"),
    # a calendar that says what could go wrong on each date, or a tracker that says why, assesses too
    ("| Date | Obligation or event | What could go wrong |", "analysis"), ("| Date | Action | If missed |", "analysis"),
])
def test_a_table_whose_first_column_names_a_field_or_a_person_is_a_recital(header, section):
    seg = segment(f"# Review\n\n{header}\n|---|---|\n| Section 3.4 | The waiver is void |")
    assert [b.section for b in seg.blocks if b.kind == "row"][-1] == section


@pytest.mark.parametrize("line", ["16:20 one message with one time", "16:20 two messages 16:21 only"])
def test_a_line_with_fewer_than_three_clock_times_stays_one_block(line):
    assert len(segment(line).blocks) == 1


@pytest.mark.parametrize("text,units", [
    ("ASMs exempt?? -> fails duties test. Next.", ["asms exempt?? -> fails duties test.", "next."]),
    ("Ack. para 4 release? -> check later, prob. unenforceable.", ["ack. para 4 release? -> check later, prob. unenforceable."]),
    ("Is it void? It is.", ["is it void?", "it is."]),
])
def test_a_notes_arrow_and_shorthand_do_not_end_a_sentence(text, units):
    seg = segment(text)
    assert [seg.text[u.start:u.end] for u in seg.units] == units


@pytest.mark.parametrize(("text", "first"), [
    ("**2. Can the client proceed? No. (High.)**", "**2. can the client proceed?"),
    ("Q1. Is the notice enough? No.", "q1. is the notice enough?"),
    ("iv. The notice is late. Serve it.", "iv. the notice is late."),
])
def test_an_enumerator_in_bold_or_after_a_label_does_not_end_a_sentence(text, first):
    seg = segment(text)
    assert seg.text[seg.units[0].start:seg.units[0].end] == first


def test_a_sentence_ending_in_a_number_still_ends():
    seg = segment("The notice went out on day 2. Serve it again.")
    assert [seg.text[u.start:u.end] for u in seg.units] == ["the notice went out on day 2.", "serve it again."]


@pytest.mark.parametrize("style", ["Title Case", "snake_case"])
def test_a_findings_exports_labelled_lines_are_one_record_per_finding(style):
    """An agent's findings export writes one record per finding, its labels a schema that recurs
    (``Issue:``/``Analysis:`` or ``issue:``/``source_docs:``/``risk_level:``): each record is one
    discussion, the finding's subject in one line and its analysis in another. A glossary's labels
    are its terms and do not recur: its lines stay apart."""
    labels = (["Issue", "Parties", "Source documents", "Analysis", "Risk level"] if style == "Title Case"
              else ["issue", "parties", "source_docs", "analysis", "risk_level"])
    values = [["The covenant runs two years.", "Harbor Street Cafe", "Doc 3", "It is unenforceable.", "high"],
              ["The notice is late.", "Harbor Street Holdings", "Doc 5", "The option lapses.", "medium"]]
    text = "# Findings\n\n" + "\n\n".join(
        f"## finding_{n}\n\n" + "\n".join(f"- {label}: {value}" for label, value in zip(labels, vals))
        for n, vals in enumerate(values, 1))
    seg = segment(text)
    items = [b.index for b in seg.blocks if b.kind == "item"]
    assert len(items) == 10
    assert seg.record_of(items[0]) == tuple(items[:5]) and seg.record_of(items[7]) == tuple(items[5:])
    glossary = segment("# Terms\n\n- Premises: Unit 4.\n- Landlord: Harbor Street Holdings.\n- Tenant: the cafe.\n")
    assert all(seg_b == () for seg_b in (glossary.record_of(b.index) for b in glossary.blocks))


DRAFT_THEN_REVIEW = """# Review

## Draft issues

1. The renewal notice is late.
2. The parking addendum is a liability risk.
   - It caps nothing.

## Self-review

Kept 1: the notice went out after June 30.
Withdrawn 2: the addendum expired in 2021.

## Final answer

1. The renewal notice is late and the option lapses.
"""


def test_a_draft_item_the_review_withdraws_by_number_is_declined():
    """A draft list that a later section at its level reviews item by item ("Withdrawn 2: ...") sets the
    withdrawn item and its sub-items aside; a kept item, the review and the final answer are the memo's
    analysis. Without such a review, or for an item no review line names, the draft is analysis."""
    seg = segment(DRAFT_THEN_REVIEW)
    by_text = {seg.text[b.start:b.end]: b.section for b in seg.blocks}
    assert by_text["the parking addendum is a liability risk."] == "declined"
    assert by_text["it caps nothing."] == "declined"
    assert by_text["the renewal notice is late."] == "analysis" and by_text["draft issues"] == "analysis"
    assert by_text["kept 1: the notice went out after june 30."] == "analysis"
    alone = segment(DRAFT_THEN_REVIEW.replace("## Self-review", "## Notes").replace("## Final answer", "## More"))
    assert all(b.section == "analysis" for b in alone.blocks)


def test_a_field_table_whose_rows_assess_is_one_record_of_analysis():
    """A two-column "| Field | Value |" table whose row labels assess (Status, Rule, Consequence) is one
    finding's record: analysis, its rows one discussion. A key-terms abstract (Parties, Term) stays a recital."""
    issue = ("## Issue 1: Renewal option\n\n| Field | Value |\n|---|---|\n| Status | Open - problem |\n"
             "| Facts | Notice not served |\n| Consequence | The option lapses on June 30 |\n")
    seg = segment(issue)
    rows = [b for b in seg.blocks if b.kind == "row"]
    assert all(b.section == "analysis" for b in rows)
    assert seg.record_of(rows[1].index) == tuple(b.index for b in rows[1:])
    terms = segment(issue.replace("| Status |", "| Parties |").replace("| Consequence |", "| Term |"))
    assert all(b.section == "recital" for b in terms.blocks if b.kind == "row" and b.header is not None)
    assert all(terms.record_of(b.index) == () for b in terms.blocks)


@pytest.mark.parametrize("header", ["| Strengths | Weaknesses | Opportunities | Threats |", "| **Pros** | **Cons** |"])
def test_a_table_of_parallel_lists_reads_each_cell_on_its_own(header):
    """A SWOT or pros-and-cons table lines up unrelated points in a row, one a column: each cell's
    sentences are units of their own. Any other row stays one unit (its cells say one thing)."""
    cells = ["The chiller point is a non-issue.", "The deposit is unlawful. It must go back."][:len(header.split("|")) - 2]
    cells += ["Renegotiate now."] * (len(header.split("|")) - 2 - len(cells))
    seg = segment(f"# Review\n\n{header}\n|---|---|\n| {' | '.join(cells)} |")
    row = [b for b in seg.blocks if b.kind == "row"][-1]
    got = [seg.text[u.start:u.end] for u in seg.units if u.block == row.index]
    assert got == [s.lower() for c in cells for s in c.replace(". ", ".\n").split("\n")]
    plain = segment(f"# Review\n\n| Issue | Facts | Risk |\n|---|---|---|\n| {' | '.join(cells[:3] + ['x'] * (3 - len(cells[:3])))} |")
    assert sum(u.block == [b for b in plain.blocks if b.kind == "row"][-1].index for u in plain.units) == 1


def test_a_draft_item_numbered_after_its_bullet_is_withdrawn_by_number():
    """A .docx numbered list reads as a bullet with its number as text ("- 2. The parking ..."): the review's
    "Withdrawn 2" reaches it as it reaches "2. The parking ..."."""
    docx = DRAFT_THEN_REVIEW.replace("\n1. The renewal notice is late.\n2.", "\n- 1. The renewal notice is late.\n- 2.")
    assert "- 2. The parking" in docx
    by_text = {(b.kind, segment(docx).text[b.start:b.end]): b.section for b in segment(docx).blocks}
    assert by_text[("item", "2. the parking addendum is a liability risk.")] == "declined"
    assert by_text[("item", "1. the renewal notice is late.")] == "analysis"


@pytest.mark.parametrize("title", ["Lease review: issues and non-issues", "Issues / non-issues", "Risks vs. non-issues",
                                   "Non-issues and issues"])
def test_a_title_sorting_issues_from_non_issues_sets_nothing_aside(title):
    """A sort of issues from non-issues: its "Issues" list is the memo's own, its "Non-issues" declined."""
    seg = segment(f"# {title}\n\n## Issues\n\n- The renewal notice is late.\n\n## Non-issues\n\n- The parking addendum.\n")
    by_text = {seg.text[b.start:b.end]: b.section for b in seg.blocks}
    assert by_text["the renewal notice is late."] == "analysis"
    assert by_text["the parking addendum."] == "declined"


@pytest.mark.parametrize("label", ["Issues", "Key risks", "Red flags", "Problems"])
def test_a_heading_that_only_labels_the_problems_is_analysis_under_a_declined_title(label):
    seg = segment(f"# Points not escalated\n\n## {label}\n\n- The renewal notice is late.\n")
    by_text = {seg.text[b.start:b.end]: b.section for b in seg.blocks}
    assert by_text["the renewal notice is late."] == "analysis"


def test_a_title_of_points_set_aside_still_declines_what_it_heads():
    seg = segment("# Issues not escalated\n\n- The parking addendum.\n\n# Non-issues\n\n- The chillers.\n")
    by_text = {seg.text[b.start:b.end]: b.section for b in seg.blocks}
    assert by_text["the parking addendum."] == "declined" and by_text["the chillers."] == "declined"
