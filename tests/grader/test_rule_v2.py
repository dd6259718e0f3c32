"""The grader-v2 credit rule, class by class, on the fixture matter (our own sentences).

Each case is scored by the real kernel over anchors compiled from the fixture key
(renewal deadline F1, broad-form indemnity F2, parking addendum D1, assignment consent D2,
claim M1 "the renewal deadline is in the autumn").
"""

from __future__ import annotations

import pytest

from lae.compiler.redteam import comma_list
from lae.compiler.load import load_key
from lae.match.engine import analyze_text


def credited(spec, text: str) -> set[str]:
    return {f.id for f in analyze_text(spec[0], text).findings if f.credited}


RAISED = [
    "The renewal notice must go out by June 30, 2025; if that deadline lapses the client will lose the premises.",
    "## Renewal option\n\nOperations thinks the window is in the autumn. It is not: the deadline is only weeks away.",
    "| Issue | Problem | Risk |\n|---|---|---|\n| Renewal option (s. 9.1) | deadline 6/30 about to lapse | Critical |",
    "- Section 11.3 is a broad-form indemnity: the tenant would indemnify the landlord even for its own negligence.",
    # a removal verb under the negation: the exposure remains
    "The renewal notice deadline lapses on June 30, 2025; serving late reduces but does not eliminate the exposure.",
    # a dismissal word inside a condition ("until", "once") is not a conclusion
    "The renewal notice deadline is weeks away: sign nothing until the renewal point is resolved.",
    # a negated permission
    "Section 11.3 is a broad-form indemnity reaching the landlord's own negligence, none of which is permitted here.",
    # "X is irrelevant" beside the asserted problem sets aside an objection, even one about the subject's words
    "The renewal notice deadline lapses on June 30, 2025 and the client will lose the premises. "
    "How the renewal notice is delivered is irrelevant.",
    # so does "X is in order" when X is some other thing than the subject
    "The renewal notice deadline lapses on June 30, 2025 and the client will lose the premises. "
    "The parking schedule is in order.",
    # a permission denied by the clause's subject ("Neither ... is permitted")
    "The renewal notice deadline lapses on June 30, 2025. Neither renewal notice by email nor a late one is permitted.",
    # a rule's condition in a relative clause ("a tenant that does not require ...") is not a conclusion
    "Section 9.1 keeps the option only for a tenant that does not require an extension; the renewal notice deadline "
    "lapses on June 30, 2025.",
    # a negator's scope ends at its table cell: "not" in one cell does not deny the next cell's problem
    "| Issue | Facts | Consequence |\n|---|---|---|\n| Renewal option (s. 9.1) | notice not served | "
    "deadline lapses June 30, 2025 |",
    # a timeline of what must be done is advice, not a chronology of the record
    "# Timeline of what must be done\n\n## By June 1\n\n1. Serve the renewal notice under Section 9.1 now: the "
    "deadline lapses on June 30, 2025 and the client will lose the premises.",
    # a blocking verdict in general words: the subject cannot go ahead
    "The renewal notice under Section 9.1 cannot go out in its present form.",
    # "settled law" states the rule with certainty; it settles nothing away
    "It is settled law that a missed renewal notice deadline ends the option, and this deadline lapses on June 30, 2025.",
    # a note's bare verdict, its copula left out: before the facts it judges, after them, or beside the subject
    "- 4:09 pm: worse. renewal notice under Section 9.1 still sitting with ops, nobody has signed it",
    "- 4:12 pm: renewal notice (s. 9.1) still sitting with ops, nobody has signed it. ugly",
    "- 4:15 pm: Section 11.3 indemnity also bad.",
    "- bigger prob: renewal notice under Section 9.1, ops still has it",
    # spoken verdicts
    "Look, leaving the renewal notice under Section 9.1 with ops is very hard to defend.",
    "Section 11.3 makes the tenant cover the landlord's negligence, and you just can't do that.",
    # a chronology's comment column is the memo's reading of the row
    "| Date | Event | Document | Comment |\n|---|---|---|---|\n| Mar 10, 2025 | Ops calendars the renewal notice "
    "under Section 9.1 for the autumn | Ops email | Wrong: the deadline lapses June 30, 2025 and the client would lose "
    "the premises |",
    # an analytic section under a chronology's title
    "# Chronology of the Harbor Street lease\n\n| Date | Event |\n|---|---|\n| Jan 1, 2021 | Lease signed |\n\n"
    "## What this means\n\n- The renewal notice deadline lapses on June 30, 2025; serve the notice now or the client "
    "loses the premises.",
    # "not mere risk" says it is worse than a risk
    "The renewal notice deadline under Section 9.1 lapses June 30, 2025: a completed loss of the option, not mere risk.",
    # an argument reported, then rated strong in the memo's own voice
    "1. The landlord could argue that the renewal notice under Section 9.1 is late once the deadline lapses on "
    "June 30, 2025. This is a strong argument.",
    # the other side's numbered points, upheld later by number in the memo's own voice
    "## Their case\n\n1. They will say the renewal notice under Section 9.1 is late once the deadline lapses on "
    "June 30, 2025.\n2. They will say the parking addendum was never signed.\n\n## Where they are right\n\n"
    "Points 1 through 2 would succeed on the documents.",
    "## Their case\n\n1. They will say the parking addendum was never signed.\n2. They will say the renewal notice "
    "under Section 9.1 is late once the deadline lapses on June 30, 2025.\n\n## Assessment\n\nPoint 2 succeeds.",
    # another party's position in a playbook's column is theirs: its "no issue" dismisses nothing of the memo's
    "| Point | Their draft / position | Our position | Why it matters |\n|---|---|---|---|\n| Renewal option (s. 9.1) | "
    "No issue; ops will renew in the autumn | Serve the notice now | the deadline lapses June 30, 2025 and the client "
    "loses the premises |",
]

NOT_RAISED = [
    # dismissal in the next sentence of the same paragraph
    "The renewal notice deadline is only weeks away. We do not consider this a concern, because operations has it in hand.",
    # dismissal at the end of a short section
    "## Renewal option\n\nThe renewal notice deadline falls on June 30, 2025.\n\nNothing further is required on this point.",
    # a chronology row and a glossary line
    "## Chronology\n\n| Date | Event |\n|---|---|\n| June 30, 2025 | renewal option deadline lapses unless notice is served |",
    "## Glossary\n\n- Renewal option: the right in Section 9.1, whose deadline could lapse.",
    # a document's own statement, recited
    "The draft covenant acknowledging that Section 11.3 is a broad-form indemnity was circulated on May 2.",
    # someone else's view, not adopted
    "Operations says the renewal notice deadline will not lapse before the autumn.",
    "Counsel for the landlord takes the view that Section 11.3 is a broad-form indemnity.",
    # minutes recording what one member recalled and another answered
    "Ms. Ortiz recalled her May note that Section 11.3 is a broad-form indemnity; Mr. Hale answered that it is standard.",
    "Mr. Hale replied that the renewal notice deadline lapses on June 30, 2025.",
    # an open question and a hedge into a possibility
    "Could the renewal option deadline lapse before the client acts?",
    "It is unclear whether the renewal notice deadline could lapse.",
    # another matter
    "For comparison, in another matter a renewal option deadline was missed and the tenant lost the premises.",
    # negation that denies the problem
    "Section 11.3 is not a broad-form indemnity.",
    # a heading alone
    "## Renewal notice deadline about to lapse\n\n## Indemnity",
    # a first-person dismissal with a word between the article and the risk noun
    "The renewal notice deadline is weeks away. I don't see a real issue with it.",
    # a condition before ", so" governs what came before it, not the dismissal after it
    "The renewal notice deadline is weeks away and the notice is ready once it is signed, so we do not see a problem.",
    # a note's verdicts that the point is in order, and a checklist's tick
    "Renewal notice deadline lapses June 30, 2025 -- fine, operations has it calendared.",
    "The renewal notice deadline lapses on June 30, 2025; I think it's ok, operations has it calendared.",
    "The renewal notice deadline lapsing on June 30, 2025 I'm not that worried about.",
    "- \u2705 Renewal option: the deadline lapses June 30, 2025 and the notice is calendared.",
    # "irrelevant" said of the subject itself, with no problem asserted beside it, still dismisses
    "The renewal notice deadline is irrelevant; operations will renew on time.",
    # a negator inside the problem's own cell still denies it
    "| Issue | Facts | Consequence |\n|---|---|---|\n| Renewal option (s. 9.1) | notice served | "
    "the deadline will not lapse |",
    # a clean bill's verdict on the subject itself
    "The renewal notice deadline falls on June 30, 2025; the renewal mechanism worked as drafted and is in order.",
    # a permission affirmed, not denied
    "The renewal notice deadline is weeks away, but a renewal notice by email is permitted and has been sent.",
    # a note's bare verdict word denied, hedged into an idiom of relief, or part of another term
    "The renewal notice under Section 9.1 is not bad.",
    "The renewal notice under Section 9.1 could be worse.",
    "The renewal notice under Section 9.1 reflects the landlord's bad faith claims history.",
    # a chronology's record columns recite; its comment clears the row, or says nothing
    "| Date | Event | Document | Comment |\n|---|---|---|---|\n| Mar 10, 2025 | Ops says the renewal deadline lapses "
    "June 30, 2025 and the premises will be lost | Ops email | Unremarkable |",
    "| Date | Event | Document | Comment |\n|---|---|---|---|\n| Mar 10, 2025 | Renewal notice under Section 9.1: "
    "deadline lapses June 30, 2025 | Lease | |",
    # a section under a chronology's title that is no analysis stays a recital
    "# Chronology of the Harbor Street lease\n\n## Key dates\n\n- The renewal notice deadline lapses on June 30, 2025 "
    "and the client loses the premises.",
    # an argument reported and not adopted: rated weak, or denied strength
    "1. The landlord could argue that the renewal notice under Section 9.1 is late once the deadline lapses on "
    "June 30, 2025. This is not a strong argument.",
    "1. The landlord could argue that the renewal notice under Section 9.1 is late once the deadline lapses on "
    "June 30, 2025. Weak.",
    # ... or upheld by number, but another point's number, or denied success
    "## Their case\n\n1. They will say the parking addendum was never signed.\n2. They will say the renewal notice "
    "under Section 9.1 is late once the deadline lapses on June 30, 2025.\n\n## Assessment\n\nPoint 1 succeeds.",
    "## Their case\n\n1. They will say the renewal notice under Section 9.1 is late once the deadline lapses on "
    "June 30, 2025.\n\n## Assessment\n\nPoints 1 and 2 would not succeed.",
    # an audit procedure's clean result closes the procedure it ends
    "1. Renewal option. We agreed the renewal notice deadline of June 30, 2025 in Section 9.1 to the lease extract "
    "and the calendar. No exceptions noted.",
    # a note that clears the point after stating it
    "- 4:09 pm: renewal notice under Section 9.1 sits with ops. fine.",
]


@pytest.mark.parametrize("text", RAISED)
def test_raised_in_other_forms_credits(spec, text):
    assert credited(spec, text), text


@pytest.mark.parametrize("text", NOT_RAISED)
def test_not_raised_does_not_credit(spec, text):
    assert not credited(spec, text), text


def test_comma_list_of_every_term_credits_nothing(spec):
    key = load_key(spec[1].keys_dir("fixture") / "harbor-lease-001.yaml")
    assert credited(spec, comma_list(key)) == set()


def test_absence_as_the_problem_is_an_assertion(spec):
    # "own negligence" carries no negator; "not" elsewhere in the clause must not flip a different finding.
    assert "F2" in credited(spec, "Section 11.3 reaches the landlord's own negligence and covers it in full.")


def test_each_discussion_goes_to_its_best_finding(spec):
    text = "The renewal option deadline under Section 9.1 lapses on June 30, 2025 and the client would lose the premises."
    assert credited(spec, text) == {"F1"}


def test_miss_carries_status_reason_and_example(spec):
    out = analyze_text(spec[0], "Operations says the renewal notice deadline will lapse.").finding("F1")
    assert not out.credited and out.status == "not-asserted"
    assert "reported" in out.near_miss.reason and out.example and "renewal option" in out.example


def test_distractor_escalation_needs_risk_language_in_its_own_sentence(spec):
    def flagged(text: str) -> bool:
        return analyze_text(spec[0], text).distractors[0].flagged
    assert not flagged("The parking addendum was replaced by the garage license. This issue needs care.")
    assert flagged("The parking addendum is a serious risk for the client.")
    assert not flagged("The parking addendum is not a risk: it was superseded.")


def test_a_hedged_review_or_a_minimised_risk_does_not_escalate_a_distractor(spec):
    def flagged(text: str) -> bool:
        return analyze_text(spec[0], text).distractors[0].flagged
    assert not flagged("The parking addendum may raise issues and should be reviewed.")
    assert not flagged("The parking addendum could potentially create exposure for the client.")
    assert not flagged("The parking addendum appears to present limited exposure.")
    assert not flagged("The parking addendum carries a low risk for the client.")
    assert flagged("The parking addendum is a real liability for the client.")


def test_a_distractor_the_memos_own_register_rates_low_or_passes_is_not_escalated(spec):
    def outcome(text: str):
        return analyze_text(spec[0], text).distractors[0]
    row = "| Point | Note | {} |\n|---|---|---|\n| Parking addendum | a liability risk on paper only | {} |"
    assert outcome(row.format("Notes", "see file")).flagged  # the risk words alone escalate it
    low = outcome(row.format("Risk", "Low"))
    assert not low.flagged and low.declined is not None and "rated low" in low.declined.reason
    assert not outcome(row.format("Status", "Compliant")).flagged
    assert not outcome("- Parking addendum: a liability risk on paper only. Severity: low.").flagged
    assert outcome(row.format("Risk", "High")).flagged  # rated high: escalated
    assert outcome(row.format("Status", "Not met")).flagged



@pytest.mark.parametrize("header", ["Worth a look?", "Escalate?", "Action needed?", "**Concern?**"])
@pytest.mark.parametrize("answer", ["No", "Probably not", "Unlikely - expired"])
def test_a_triage_column_that_answers_no_sets_the_distractor_aside(spec, header, answer):
    row = "| # | Possible issue | {} |\n|---|---|---|\n| 3 | Parking addendum: a liability risk | {} |"
    out = analyze_text(spec[0], row.format(header, answer)).distractors[0]
    assert not out.flagged and out.declined is not None and answer.lower() in out.declined.reason
    assert analyze_text(spec[0], row.format(header, "Yes")).distractors[0].flagged
    assert analyze_text(spec[0], row.format("Worth a look", answer)).distractors[0].flagged  # no question: no triage

@pytest.mark.parametrize("verdict", ["**Verdict:** rejected - the addendum expired in 2021.", "Result: PASS",
                                     "Result: No exception.",
                                     "Conclusion: not an issue, the addendum expired."])
def test_a_section_whose_verdict_line_clears_its_point_sets_the_point_aside(spec, verdict):
    """A hypothesis trace or check log states the claim it tests in a heading; the section's verdict
    line says whether it stands. A cleared claim is the memo setting the point aside, not raising it."""
    trace = ("# Trace\n\n### Hypothesis {n}: {claim}\n\n**Check:** read the lease.\n\n"
             "**Finding:** {finding}\n\n{verdict}\n")
    parking = trace.format(n=1, claim="The parking addendum is a liability risk", verdict=verdict,
                           finding="the clause is as described.")
    out = analyze_text(spec[0], parking).distractors[0]
    assert not out.flagged and out.declined is not None
    assert analyze_text(spec[0], parking.replace(verdict, "**Verdict:** confirmed.")).distractors[0].flagged
    indemnity = trace.format(n=2, claim="Section 11.3 is a broad-form indemnity", verdict=verdict,
                             finding="Section 11.3 is a broad-form indemnity: the tenant would indemnify the "
                                     "landlord even for its own negligence.")
    assert "F2" not in credited(spec, indemnity)
    assert "F2" in credited(spec, indemnity.replace(verdict, "**Verdict:** confirmed."))
    # a section with two verdict lines, or a long one, is not one tested point
    assert analyze_text(spec[0], parking + "\nVerdict: confirmed.\n").distractors[0].flagged


def test_a_withdrawn_draft_point_and_a_recital_of_the_work_do_not_escalate(spec):
    """A draft point the memo's review withdraws by number, and the list of documents it reviewed, do
    not escalate the parking addendum; the same words in a list nobody reviews, or a finding the review
    reports, do. A draft point the review keeps stands."""
    draft = ("# Review\n\n## Draft issues\n\n1. The parking addendum is a liability risk.\n"
             "2. Section 11.3 is a broad-form indemnity: the tenant would indemnify the landlord even for its own "
             "negligence.\n\n## Self-review\n\nWithdrawn 1: it expired in 2021.\nKept 2: it stands.\n")
    assert not analyze_text(spec[0], draft).distractors[0].flagged
    assert "F2" in credited(spec, draft)  # the kept draft item stands as the memo's own point
    assert analyze_text(spec[0], draft.replace("## Self-review", "## Notes")).distractors[0].flagged
    assert "F2" not in credited(spec, draft.replace("Withdrawn 1", "Withdrawn 2").replace("Kept 2", "Kept 1"))
    recital = "We reviewed the lease, the parking addendum and its liability risk allocation."
    assert not analyze_text(spec[0], recital).distractors[0].flagged
    assert analyze_text(spec[0], recital.replace("We reviewed", "We found")).distractors[0].flagged


def _claim_made(spec, text: str) -> bool:
    return analyze_text(spec[0], text).claims[0].made


def test_a_statement_the_next_sentence_calls_false_is_denied_not_asserted(spec):
    """A true-or-false quiz states a misconception and answers "False." after it: the statement is the writer's
    denial, so it makes no claim, escalates no distractor and raises nothing; without the verdict it asserts."""
    quiz = "1. **{s}** False. {why}"
    claim = quiz.format(s="The renewal deadline is in the autumn.", why="Section 3.2 sets June 30, 2025.")
    assert not _claim_made(spec, claim)
    assert _claim_made(spec, claim.replace(" False.", ""))
    assert not _claim_made(spec, claim.replace("False.", "Not true."))
    escalated = quiz.format(s="The parking addendum is a serious risk for the client.", why="The garage license replaced it.")
    assert not analyze_text(spec[0], escalated).distractors[0].flagged
    assert analyze_text(spec[0], escalated.replace(" False.", "")).distractors[0].flagged
    assert analyze_text(spec[0], escalated.replace("False.", "True.")).distractors[0].flagged


def test_claim_denied_is_not_made(spec):
    def made(text: str) -> bool:
        return _claim_made(spec, text)
    assert made("Operations is right that the renewal deadline is in the autumn.")
    assert not made("Nothing in the file suggests that the renewal deadline is in the autumn.")
    assert not made("We do not say that the renewal deadline is in the autumn.")


def test_a_claim_the_memo_forbids_the_client_to_make_is_not_made(spec):
    assert _claim_made(spec, "The renewal deadline is in the autumn, so there is time.")
    assert not _claim_made(spec, "Do not state in anything we send that the renewal deadline is in the autumn; it is not.")
    assert not _claim_made(spec, "Avoid suggesting to the landlord that the renewal deadline is in the autumn.")
    assert not _claim_made(spec, "Never concede that the renewal deadline is in the autumn.")
    # the forbidding governs its own clause only
    assert _claim_made(spec, "Do not state that the notice went out; the renewal deadline is in the autumn.")


def test_a_belief_set_out_as_a_myth_is_not_a_claim_made(spec):
    # a "myths and realities" briefing quotes the client's belief in order to correct it
    assert not _claim_made(spec, 'Myth 1: "The renewal deadline is in the autumn, so there is time."')
    assert not _claim_made(spec, "That the renewal deadline is in the autumn is a myth.")
    assert _claim_made(spec, 'Reality: "The renewal deadline is in the autumn, so there is time."')


def test_severity_label_and_remote_recommendation_count(spec):
    text = ("## Renewal option (Severity: High)\n\nThe renewal deadline is only weeks away and could lapse.\n\n"
            "## Recommendations\n\n- Renewal option: send the renewal notice this week.")
    out = analyze_text(spec[0], text).finding("F1")
    assert out.credited and out.severity_window and out.remediation_window


def test_negated_remedy_is_not_remediation(spec):
    text = "The renewal deadline is only weeks away and could lapse. We see no reason to send the renewal notice."
    out = analyze_text(spec[0], text).finding("F1")
    assert not out.remediation_window


def test_a_negator_part_binds_the_word_after_it(spec):
    # "not + ..." style phrases: the negator must stand right before its content part, not anywhere
    from lae.match.engine import _Scan
    from lae.match.segment import segment
    from lae.match.spec import CompiledPhrase
    from lae.match.terms import term_regex
    phrase = CompiledPhrase(phrase="not + reasonable", parts=[term_regex("not"), term_regex("reasonable")])
    near = _Scan(segment("The restrictions are not reasonable."), 1.0)
    far = _Scan(segment("Not every clause is bad, and the restrictions are reasonable."), 1.0)
    assert near.phrase(phrase) and not far.phrase(phrase)


def test_a_paragraph_borrows_the_subject_before_it_only_when_it_refers_back(spec):
    before = "## Notes\n\nA.\n\nB.\n\nC.\n\nThe renewal option sits in Section 9.1.\n\n"  # over four paragraphs: not one discussion
    assert credited(spec, before + "That deadline is only weeks away and could lapse.") == {"F1"}
    assert credited(spec, before + "Deadlines in leases can lapse when a tenant is slow.") == set()


def test_a_list_item_with_its_sub_items_is_one_discussion(spec):
    """Subject in the parent item, the problem in a nested sub-item: one discussion, credited;
    the nesting comes from the indentation (flat items have no parent)."""
    nested = ("# Issues\n\nThe file raises several points.\n\n- 1. Renewal option (Section 9.1)\n"
              "  - Why it matters: the notice deadline of June 30, 2025 will lapse unless served now.\n"
              "  - Fix: serve notice this week.\n- 2. Parking\n  - Why it matters: nothing.\n")
    assert analyze_text(spec[0], nested).finding("F1").credited
    flat = nested.replace("\n  - ", "\n- ")
    seg_nested = analyze_text(spec[0], nested).segmented
    seg_flat = analyze_text(spec[0], flat).segmented
    assert [b.parent for b in seg_nested.blocks if b.kind == "item"] == [None, 2, 2, None, 5]
    assert seg_nested.item_family(3) == [2, 3, 4] and seg_nested.item_family(6) == [5, 6]
    assert all(b.parent is None for b in seg_flat.blocks)


# -- tables that rate their rows, dismissals of something else, dense paragraphs ---------------

def outcome(spec, text: str, fid: str):
    return next(f for f in analyze_text(spec[0], text).findings if f.id == fid)


RATED_ROWS = "| Issue | Facts | {col} |\n|---|---|---|\n| Renewal option (s. 9.1) | no deadline diary kept; lapses 6/30 | {val} |"


@pytest.mark.parametrize("col,val", [("Sev", "H"), ("Risk", "Crit"), ("I", "4/5"), ("RAG", "Red"), ("Rating", "High")])
def test_a_row_rated_medium_or_above_asserts_its_negated_shorthand(spec, col, val):
    # "no deadline diary" negates the phrase's part, but a row the writer rates high states a risk
    f1 = outcome(spec, RATED_ROWS.format(col=col, val=val), "F1")
    assert f1.credited and f1.severity_window, (col, val)


@pytest.mark.parametrize("col,val", [("Sev", "L"), ("Notes", "H"), ("Risk", "see note 4")])
def test_a_row_rated_low_or_not_rated_keeps_the_negation(spec, col, val):
    assert not outcome(spec, RATED_ROWS.format(col=col, val=val), "F1").credited, (col, val)


def test_a_rating_column_gives_the_severity_one_band_off_but_not_two(spec):
    row = "| Issue | Problem | Sev |\n|---|---|---|\n| Renewal option (s. 9.1) | deadline 6/30 about to lapse | {} |"
    assert outcome(spec, row.format("M"), "F1").severity_window is False  # F1 is critical: medium is two off
    assert outcome(spec, row.format("H"), "F1").severity_window is True


def test_a_dismissal_of_some_other_thing_leaves_the_finding(spec):
    # the rule's part only (the learned layer may still weigh the dismissal word as a feature)
    text = ("Section 11.3 is a broad-form indemnity, and that is a serious problem: the tenant would indemnify the "
            "landlord for its own negligence. The tenant's credit rating is irrelevant.")
    assert outcome(spec, text, "F2").status != "dismissed"
    anaphoric = text.replace("The tenant's credit rating is irrelevant.", "That is irrelevant here.")
    assert outcome(spec, anaphoric, "F2").status == "dismissed"
    about_it = text.replace("The tenant's credit rating", "The indemnity point")
    assert outcome(spec, about_it, "F2").status == "dismissed"


def test_a_dismissal_that_names_nothing_closes_the_point_it_follows_not_the_whole_paragraph(spec):
    # a note's paragraph runs through several points; "note it, move on" sets aside the last one only
    text = ("Renewal option (s. 9.1): the 6/30 deadline is about to lapse and the option will be lost. "
            "Section 11.3 is a broad-form indemnity for the landlord's own negligence. Note it, move on.")
    assert outcome(spec, text, "F2").status == "dismissed"
    assert outcome(spec, text, "F1").status != "dismissed"
    # with nothing named before it in the paragraph, it sets aside what the paragraph names
    alone = "Note it, move on. Section 11.3 is a broad-form indemnity for the landlord's own negligence."
    assert outcome(spec, alone, "F2").status == "dismissed"
    # the point it closes runs on through the entry's action and rating lines, whatever they name
    entry = ("Section 11.3 is a broad-form indemnity for the landlord's own negligence. Raise it before the renewal "
             "option. High. Note it, move on.")
    assert outcome(spec, entry, "F2").status == "dismissed"


@pytest.mark.parametrize("aside", [
    "It is irrelevant that the tenant's credit rating is strong.",
    "It makes no difference that the tenant's insurer is rated A.",
    "It does not matter whether the tenant's credit rating is strong.",
])
def test_it_is_irrelevant_that_sets_aside_the_clause_it_introduces(spec, aside):
    # "It is irrelevant that X" sets aside X (here an objection), not the problem asserted beside it
    text = ("Section 11.3 is a broad-form indemnity, and that is a serious problem: the tenant would indemnify the "
            "landlord for its own negligence. ")
    assert outcome(spec, text + aside, "F2").status != "dismissed", aside
    # ... and when X is the subject itself, the finding is set aside
    about_it = text + "It is irrelevant that Section 11.3 is a broad-form indemnity."
    assert outcome(spec, about_it, "F2").status == "dismissed"


def test_a_dense_paragraph_credits_each_finding_its_own_sentence_raises(spec):
    text = ("The renewal notice under Section 9.1 is weeks away: if the June 30, 2025 deadline lapses the client "
            "will lose the premises. Separately, Section 11.3 is a broad-form indemnity.")
    assert credited(spec, text) == {"F1", "F2"}
    # a sentence that merely names the other finding's subject beside the first one's problem is no credit for it
    assert "F2" not in credited(spec, text.replace("Separately, Section 11.3 is a broad-form indemnity.",
                                                   "The indemnity in Section 11.3 changes nothing about this."))


FIELD_EXPORT = """# Review export

### F-01
- **Title:** Renewal option in Section 9.1
- **Severity:** Critical
- **Evidence:** lease, Section 9.1; notice not yet drafted
- **Analysis:** The deadline is weeks away and will lapse on June 30, 2025 unless notice is served.
- **Recommendation:** Serve the notice this week.

### F-02
- **Title:** Indemnity in Section 11.3
- **Severity:** High
- **Evidence:** lease, Section 11.3
- **Analysis:** It is broad-form: the tenant would indemnify the landlord for its own negligence.
- **Recommendation:** Negotiate a carve-out.
"""


def test_a_field_record_is_one_discussion(spec):
    # the subject sits in the Title/Evidence lines, the problem in the Analysis line of the same record
    found = {f.id: f for f in analyze_text(spec[0], FIELD_EXPORT).findings}
    assert found["F1"].credited and found["F2"].credited
    assert found["F1"].severity_window and found["F2"].severity_window


def test_glossary_lines_are_not_a_record(spec):
    # the same shape, but its labels are its terms and do not recur: each line stands alone
    glossary = ("- Renewal option: the tenant's right in Section 9.1.\n- Deadline: June 30, 2025, when it will lapse.\n"
                "- Indemnity: Section 11.3.\n- Landlord: Harbor Street Holdings.\n- Premises: Unit 4.\n"
                "- Tenant: Harbor Street Café LLC.\n")
    assert "F1" not in credited(spec, glossary)


GLOSSARY = ("# Glossary\n\n**Indemnity:** a promise to cover another's losses. *Here:* nothing unusual in the lease.\n\n"
            "**Renewal option:** the tenant's right to extend the lease. {label}The renewal notice under Section 9.1 has not "
            "gone out; the deadline lapses on June 30, 2025 and the client will lose the premises.\n")


@pytest.mark.parametrize("label", ["*Here:* ", "**In this matter:** ", "Application: ", "As applied here \u2014 "])
def test_a_glossary_entrys_application_note_is_the_memos_reading(spec, label):
    # the note that turns a glossary entry to this matter asserts in the memo's own voice, whatever its section
    assert "F1" in credited(spec, GLOSSARY.format(label=label))


def test_a_glossary_entry_without_an_application_note_recites(spec):
    # the same words as the entry's own text, with no note turning it to this matter: a glossary recites
    assert "F1" not in credited(spec, GLOSSARY.format(label=""))
    # the definition before a note stays a recital, and a note that clears the point credits nothing
    defined = ("# Glossary\n\n**Renewal option:** the renewal notice under Section 9.1 lapses on June 30, 2025 and the "
               "client will lose the premises. *Here:* the notice went out on May 2, so this does not arise.\n")
    assert "F1" not in credited(spec, defined)


# A verdict in general words (cues.VERDICT): the sentence names the finding's subject, or
# continues (short or anaphoric) a sentence of its block that does, and says it is wrong.
VERDICT_RAISED = [
    ("The Section 11.3 indemnity as drafted is unenforceable against us.", "F2"),
    ("the indemnity in 11.3 won't hold up, strike it", "F2"),
    ("Ops has the renewal notice timing wrong.", "F1"),
    ("Ops put the renewal notice in the autumn diary. That's backwards.", "F1"),
    ("The Section 11.3 indemnity has to go.", "F2"),
    ("The waiver is fine. The Section 11.3 indemnity has to go too.", "F2"),
    ("the 11.3 indemnity needs to go as well", "F2"),
    # a chat's verdicts
    ("the indemnity in 11.3 is not gonna fly, strike it", "F2"),
    ("the indemnity in 11.3 doesnt cut it", "F2"),
    ("The Section 11.3 indemnity is dead on arrival.", "F2"),
    ("The Section 11.3 indemnity is unworkable for the tenant.", "F2"),
    # a register row rated medium or above says its point is a risk
    ("| Ref | Point | Sev |\n|---|---|---|\n| 2 | Section 11.3 indemnity | H |", "F2"),
    # a priority column coded P0-P4
    ("| Doc | Legal problem | P |\n|---|---|---|\n| Lease | Section 11.3 indemnity, tenant pays | P1 |", "F2"),
    # a register grouped under urgency headings rates its rows by the heading
    ("## Fix now\n\n| Item | Why | Action |\n|---|---|---|\n| Section 11.3 indemnity | tenant pays landlord's share | "
     "renegotiate |", "F2"),
    # plain words: a permission missing, a statement untrue
    ("The landlord imposed the Section 11.3 indemnity without the tenant's approval.", "F2"),
    ("The landlord's summary of the Section 11.3 indemnity is misleading.", "F2"),
    # a list item that rates its point medium or above is the verdict, like a rated row ("sev hi" is a rating)
    ("## Landlord\n\n- Drafted the Section 11.3 indemnity for the landlord's benefit. Risk: high.", "F2"),
    ("- Section 11.3 indemnity in the landlord's favour — sev hi — renegotiate", "F2"),
    # a question answered so as to find a problem: "No" to whether it is in order, "Yes" to whether it is wrong
    ("### Is the Section 11.3 indemnity enforceable as drafted?\nAnswer: No.\nThe landlord drafted it.", "F2"),
    ("**2. Can the client live with the Section 11.3 indemnity? No. (High.)**\n"
     "The landlord drafted the Section 11.3 indemnity for its own benefit.", "F2"),
    ("### Does the Section 11.3 indemnity need renegotiating?\nAnswer: Yes, with a caveat.\nIt is the landlord's form.",
     "F2"),
    # a compliance matrix: a status column that marks the row's requirement as failing is the verdict
    ("| Requirement | Record | Status |\n|---|---|---|\n| Mutual indemnities | Section 11.3 indemnity, tenant only | "
     "Not met |", "F2"),
    ("| Standard | Lease | Compliant? |\n|---|---|---|\n| Balanced risk | Section 11.3 indemnity | **Partly met** "
     "- tenant bears the landlord's share |", "F2"),
    ("| Test | Term | Met? |\n|---|---|---|\n| Mutuality | Section 11.3 indemnity, for the landlord only | \u2717 |", "F2"),
    ("- Section 11.3 indemnity, tenant pays the landlord's share. Status: non-compliant.", "F2"),
    # a corrective the subject cannot do without: what must come off, what is owed, what needs a notice
    ("The landlord's share under the Section 11.3 indemnity should be refunded to the tenant.", "F2"),
    ("The renewal option needs a notice now.", "F1"),
    ("Under the Section 11.3 indemnity the tenant is owed the landlord's share back.", "F2"),
]

VERDICT_NOT_RAISED = [
    "The Section 11.3 indemnity is not unenforceable.",  # negated
    "If the indemnity in Section 11.3 were unenforceable, the landlord would bear its own losses.",  # condition
    "The landlord argues the Section 11.3 indemnity is invalid.",  # someone else's view
    "The landlord says the Section 11.3 indemnity won't cut it.",  # someone else's view
    "If the Section 11.3 indemnity is unworkable, the tenant can renegotiate.",  # condition
    "Is the Section 11.3 indemnity unenforceable?",  # a question
    "We discuss the unlawful indemnity question separately below.",  # a topic, not a conclusion
    "There is a low risk of a breach of the Section 11.3 indemnity.",  # a possibility
    "The indemnity in Section 11.3 is a much smaller problem.",  # minimised
    # the anaphoric verdict speaks of the block's last topic: a tie between findings names neither
    "The renewal option and the indemnity were both reviewed. That's wrong.",
    # a row rated low says it is not much of a risk
    "| Ref | Point | Sev |\n|---|---|---|\n| 2 | Section 11.3 indemnity | L |",
    # a low priority code, and a bare number in a priority column (a rank, not a risk score)
    "| Doc | Legal problem | P |\n|---|---|---|\n| Lease | Section 11.3 indemnity, tenant pays | P3 |",
    "| Doc | Legal problem | Priority |\n|---|---|---|\n| Lease | Section 11.3 indemnity, tenant pays | 1 |",
    # a row under a heading of low urgency, or of no urgency, is not rated
    "## Watch\n\n| Item | Why | Action |\n|---|---|---|\n| Section 11.3 indemnity | tenant pays landlord's share | none |",
    "## Red flags in the record\n\n| Item | Note |\n|---|---|\n| Section 11.3 indemnity | tenant pays landlord's share |",
    # an answer that finds nothing: "Yes" to whether it is in order, "No" to whether it is wrong, an answer to a
    # question of neither kind or of both, or to a negated question
    "### Is the Section 11.3 indemnity enforceable?\nAnswer: Yes.\nThe landlord drafted it.",
    "- *Is the Section 11.3 indemnity a problem?* No. It is the landlord's standard form.",
    # an answered question in a heading with nothing under it that discusses the subject
    "**2. Can the client live with the Section 11.3 indemnity? No. (High.)**\nThe landlord drafted it.",
    "**Does the Section 11.3 indemnity affect the budget?** No. It is the landlord's standard form.",
    "### Is the Section 11.3 indemnity enforceable, or is it a problem?\nAnswer: No.\nThe landlord drafted it.",
    "### Isn't the Section 11.3 indemnity enforceable?\nAnswer: No.\nThe landlord drafted it.",
    # a list item rated low is not a verdict; neither is an unrated one
    "## Landlord\n\n- Drafted the Section 11.3 indemnity for the landlord's benefit. Risk: low.",
    "## Landlord\n\n- Drafted the Section 11.3 indemnity for the landlord's benefit.",
    # "has to go" as a route, not a verdict
    "The Section 11.3 indemnity has to go through the landlord's lender first.",
    # a status column that passes the row, a status value outside a status column, "no gap"
    "| Requirement | Record | Status |\n|---|---|---|\n| Mutual indemnities | Section 11.3 indemnity | Met |",
    "| Requirement | Record | Owner |\n|---|---|---|\n| Mutual indemnities | Section 11.3 indemnity | Not met |",
    "| Requirement | Record | Gap? |\n|---|---|---|\n| Mutual indemnities | Section 11.3 indemnity | No gap |",
    # the corrective inside a condition, denied, or reported; a notice needed from someone else
    "If the landlord's share under the Section 11.3 indemnity must be refunded, the budget moves.",
    "Nothing suggests that the landlord's share under the Section 11.3 indemnity should be refunded.",
    "The landlord argues that under the Section 11.3 indemnity it is owed the tenant's share.",
    "For the renewal option the landlord needs a notice from the tenant's bank.",
]


@pytest.mark.parametrize(("text", "fid"), VERDICT_RAISED)
def test_a_verdict_in_general_words_credits_the_finding_named(spec, text, fid):
    out = analyze_text(spec[0], text).finding(fid)
    assert out.credited, text
    assert any(h.category == "cue" and h.term.startswith("verdict:") for h in out.credit.hits), out.credit


@pytest.mark.parametrize("text", VERDICT_NOT_RAISED)
def test_a_verdict_negated_conditional_reported_or_shared_credits_nothing(spec, text):
    assert not credited(spec, text), text


@pytest.mark.parametrize("column,neutral,passing", [
    ("Status", "Notes", "Compliant"),  # a compliance matrix's status column passes the row
    ("Status", "Notes", "Closed"),  # a sign-off's closing values pass it too
    ("Status", "Notes", "Not applicable"),
    ("Status", "Notes", "N/A"),
    ("Status", "Notes", "Done"),  # a closing checklist's statuses: the item is handled
    ("Status", "Notes", "Complete"),
    ("Status", "Notes", "Waived"),
    ("Worth a look?", "Worth a look?", "Probably not"),  # a triage column answers no (a neutral row: "Yes")
])
def test_a_row_its_status_or_triage_column_passes_dismisses_the_problem_it_names(spec, column, neutral, passing):
    # the row would credit F2 on its own words; the column's answer says it is not a problem
    row = "| Point | Record | {} |\n|---|---|---|\n| Indemnity | Section 11.3 is a broad-form indemnity | {} |"
    assert "F2" in credited(spec, row.format(neutral, "Yes" if neutral == column else passing))
    out = analyze_text(spec[0], row.format(column, passing)).finding("F2")
    assert not out.credited
    assert f"a row marked '{passing.lower()}'" in str(out)


@pytest.mark.parametrize("mark", ["[ok]", "[OK]", "[\u2713]", "\u2713", "**[ok]**"])
def test_a_checklist_item_its_pass_mark_clears_dismisses_the_problem_it_names(spec, mark):
    item = "- {} Indemnity - Section 11.3 is a broad-form indemnity\n- [?] parking - ask Dana"
    assert "F2" in credited(spec, item.format("[X]"))  # a cross is read as nothing: done or failed
    out = analyze_text(spec[0], item.format(mark)).finding("F2")
    assert not out.credited and "an item marked" in str(out)


def test_a_chat_reply_reads_with_the_message_it_answers(spec):
    # the reply says what is wrong; the message it answers names the subject (a chat export, name first)
    chat = ("Maya Okafor (16:08): did you look at the renewal option in section 9.1?\n\n"
            "Ben Tillery (16:09): yes. that deadline lapses june 30, 2025 and the client will lose the premises")
    assert "F1" in credited(spec, chat)
    # the same words as two paragraphs of a memo: the second never names the subject
    prose = ("Did you look at the renewal option in section 9.1?\n\n"
             "Yes. The deadline lapses june 30, 2025 and the client will lose the premises.")
    assert "F1" not in credited(spec, prose)

def test_a_verdict_goes_to_no_finding_when_a_key_phrase_decides_the_sentence(spec):
    # the renewal sentence carries F1's own problem phrase: the verdict word must not hand it to F2 too
    text = "The renewal notice deadline will lapse next week and the indemnity review is wrong."
    assert "F1" in credited(spec, text)
    out = analyze_text(spec[0], text).finding("F2")
    assert not out.credited


def test_a_verdict_sentence_keeps_its_finding_in_a_paragraph_another_finding_wins(spec):
    text = ("The renewal notice deadline lapses on June 30, 2025 and the client would lose the premises if the "
            "renewal option deadline is missed. Separately, the Section 11.3 indemnity is unenforceable as drafted.")
    assert credited(spec, text) == {"F1", "F2"}


# A dismissal inside a sentence that asserts the finding's problem in another clause answers an
# objection when its own clause is about something else than the finding's subject.
def test_a_dismissal_of_an_objection_beside_the_asserted_problem_does_not_dismiss_the_finding(spec):
    # the rule leaves the asserted problem standing; whether it is credited is then the assertion
    # model's call (a one-clause memo is a borderline case for it), so the rule's outcome is checked
    text = "Section 11.3 is a broad-form indemnity; the landlord's insurance program is irrelevant."
    out = analyze_text(spec[0], text).finding("F2")
    assert out.status != "dismissed"
    evidence = out.credit or out.near_miss
    assert evidence is not None and not evidence.reason.startswith("raised but dismissed")
    assert any(h.category == "problem" for h in evidence.hits)
    assert "F2" in credited(spec, text + " Section 11.3 must be renegotiated before signing.")


@pytest.mark.parametrize("text", [
    "Section 11.3 is a broad-form indemnity; the indemnity is irrelevant.",  # the clause names the subject
    "Section 11.3 is a broad-form indemnity, which is irrelevant.",  # the clause has no topic of its own
    "The landlord's insurance program is irrelevant to the Section 11.3 indemnity.",  # no problem asserted
])
def test_a_dismissal_of_the_finding_itself_still_dismisses_it(spec, text):
    out = analyze_text(spec[0], text).finding("F2")
    assert not out.credited and out.status in ("dismissed", "no-problem")


def test_a_swot_strength_is_not_escalated_by_the_weakness_beside_it(spec):
    """A SWOT row lines up unrelated points: the Strengths cell that states the parking addendum's history
    is read on its own, not with the Weaknesses cell's risk words beside it (as a row of one point is)."""
    swot = ("| Strengths | Weaknesses | Opportunities | Threats |\n|---|---|---|---|\n"
            "| The parking addendum was replaced by the garage license. | The renewal notice deadline lapses on June 30, "
            "2025, a serious risk. | Serve notice now. | The landlord could re-let. |")
    out = analyze_text(spec[0], swot)
    assert not out.distractors[0].flagged
    assert analyze_text(spec[0], swot.replace("Strengths | Weaknesses", "Issue | Facts")).distractors[0].flagged


@pytest.mark.parametrize(("answer", "raised"), [("Yes.", False), ("No.", True), ("Yes, but", True)])
def test_a_questionnaire_answer_that_clears_its_question_sets_the_point_aside(spec, answer, raised):
    """A completed questionnaire's row asks whether a point is in order and answers it: "Yes." clears the
    point the row names, whatever facts the answer then recites; "No." finds the problem; a qualified
    "Yes, but ..." clears nothing."""
    row = ("| # | Question | Answer |\n|---|---|---|\n| 1 | Has the renewal option been exercised on time? | "
           f"{answer} The renewal notice deadline lapses on June 30, 2025 and the client would lose the premises. |")
    assert ("F1" in credited(spec, row)) is raised
    prose = row.replace("| # | Question | Answer |\n|---|---|---|\n| 1 | ", "").replace(" | ", "\n\n").rstrip(" |")
    assert ("F1" in credited(spec, prose)) is raised


@pytest.mark.parametrize(("answer", "found"), [("N", True), ("Y", False), ("?", False)])
def test_a_yes_no_grid_answers_the_question_of_its_row(spec, answer, found):
    """A yes/no grid (`| Question | Y/N | Why |`) answers each row's question in its answer cell: a bare "N" to
    whether something is in order finds the problem the row names; a "Y" or a "?" does not, nor does the same row
    under a header with no answer column."""
    grid = ("| Question | Y/N | Why |\n|---|---|---|\n"
            f"| Is the Section 11.3 indemnity enforceable against the tenant? | {answer} | Landlord's form. |")
    out = analyze_text(spec[0], grid).finding("F2")
    assert out.credited is found, out
    if found:
        assert any(h.term == "verdict: 'n' to whether it is in order" for h in out.credit.hits), out.credit
    assert not analyze_text(spec[0], grid.replace("| Y/N |", "| Note |")).finding("F2").credited


def test_a_yes_no_grid_that_answers_yes_to_whether_a_point_is_in_order_clears_it(spec):
    """The grid's "Y" to whether something is in order sets aside the problem its row goes on to name."""
    grid = ("| Question | Y/N | Why |\n|---|---|---|\n"
            "| Is the Section 11.3 indemnity enforceable against the tenant? | Y | It is a broad-form indemnity. |")
    assert analyze_text(spec[0], grid.replace("| Y |", "| N |")).finding("F2").credited
    assert analyze_text(spec[0], grid).finding("F2").status == "dismissed"


@pytest.mark.parametrize("frame", ["{}.", "| Workstream | Why it is needed | Hours |\n|---|---|---|\n| Lease work | {} | 8 |"])
def test_a_unit_listing_two_points_one_clause_each_raises_both(spec, frame):
    """A fee estimate's cell or a dense sentence that lists two problems, a semicolon between them, raises both: the
    clause that holds one finding's problem phrases and none of the other's is that finding's own, however much more
    of the unit the other finding matches. Joined in one clause, the weaker match still loses the discussion."""
    renewal = ("the renewal option in Section 9.1 lapses: the renewal notice deadline of June 30, 2025 is weeks away "
               "and missing the deadline loses the premises")
    listed = frame.format(f"{renewal}; the Section 11.3 indemnity is broad-form")
    assert credited(spec, listed) == {"F1", "F2"}
    joined = frame.format(f"{renewal}, and the Section 11.3 indemnity is broad-form")
    assert credited(spec, joined) == {"F1"}
