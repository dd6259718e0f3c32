"""Assertion classes of the kernel, one general rule per test, on our own sentences."""

from __future__ import annotations

import pytest

from lae.match.normalize import normalize
from lae.match.polarity import (count_negators, dismissal_cue, governed_by_negation, is_keyword_list,
                                negated_before, stance)


def _stance(sentence: str, at: str | None = None, row: bool = False):
    text = normalize(sentence).text
    pos = text.index(at.lower()) if at else None
    return stance(text, 0, len(text), pos, row=row)


@pytest.mark.parametrize("sentence,at,kind", [
    ("Is the covenant void under state law?", "void", "question"),
    ("It is unclear whether the covenant is void.", "void", "hedge"),
    ("The client may wish to consider whether the covenant is void.", "void", "hedge"),
    ("A filing may be required in certain circumstances.", "filing", "hedge"),
    ("If the board were to approve the sale, the covenant would be void.", "void", "hypothetical"),
    ("HR says the covenant is void.", "void", "reported"),
    ("Counsel's view is that the covenant is void.", "void", "reported"),
    ("The agreement provides that the covenant is void on a sale.", "void", "reported"),
    # another reviewer's work the memo reviews
    ("The first note treats the covenant as void.", "void", "reported"),
    ("The earlier memo flags the covenant as a possible violation.", "violation", "reported"),
    ("For comparison, in another matter the covenant was held void.", "void", "other-matter"),
    ("Covenants of this kind are generally void.", "void", "other-matter"),
    ("The Labor Code requires employers to reimburse mileage.", "reimburse", "law-in-abstract"),
    ("Garden leave means a paid notice period that is void of duties.", "void", "definition"),
    ("Under entire fairness, the defendants must show a fair price.", "fair price", "law-in-abstract"),
    ("In the MFW decision, the Delaware Supreme Court held that the vote cleanses the deal.", "cleanses", "law-in-abstract"),
    ("Where a director resigns over a disagreement, the company must file an 8-K.", "disagreement", "hypothetical"),
    ("Prudent boards will continue to follow MFW-style practices.", "mfw", "law-in-abstract"),
    # a rule of any one of a kind, and how such rules are applied: the indefinite article makes the subject generic
    ("A demand must be in writing and made under oath.", "under oath", "law-in-abstract"),
    ("An attorney acting for the stockholder must provide a power of attorney.", "power of attorney", "law-in-abstract"),
    ("These requirements are strictly enforced, but a deficient demand can be cured.", "strictly enforced", "law-in-abstract"),
    # an audit workpaper's statement of the rule it tests
    ("Criteria: Policy 5.4 requires reasonable break time and a private space.", "private space", "law-in-abstract"),
    # a note that defers the point
    ("Release in para 4 -> check later, prob. unenforceable.", "unenforceable", "hedge"),
    ("GC told the board the notice was late -> wrong, it went out on time.", "notice was late", "reported"),
    # an item of a to-check list leaves its point open; a verb of weighing takes the verdict as its object
    ("Check California B&P 16600 and 16600.5 for San Diego (31 staff)", "16600", "question"),
    ("- Review the 8-K wording against the resignation letter", "8-k", "question"),
    ("3. Consider release void under 206.5", "void", "question"),
    ("Assess whether the covenant is void", "void", "question"),
    # a recital of the work done lists the record
    ("We reviewed the licence, the escrow agreement and the deemed approval under clause 5.4.", "deemed", "recital"),
    ("As you asked in your email of May 8, 2025, we reviewed the pay changes and the late notice.", "late", "recital"),
    ("Our review covered the demand, the NDA and the response calendared for May 28.", "may 28", "recital"),
])
def test_not_asserted(sentence, at, kind):
    assert _stance(sentence, at).kind == kind


@pytest.mark.parametrize("sentence,at", [
    ("The covenant is void, whether or not the employee signs.", "void"),
    ("We think the covenant is void, as HR says.", "void"),
    ("In my view the first note rightly treats the covenant as void.", "void"),
    ("This note treats the covenant as void.", "void"),
    ("As the auditors note, the shipment needed a license.", "license"),
    ("This means the covenant is void.", "void"),
    ("The covenant is void; it is unclear whether the client knew.", "void"),
    ("The covenant is void and the client should consider whether to renegotiate.", "void"),
    ("The agreement provides a 24-month term; that term makes the covenant void.", "void"),
    ("Under the Labor Code, the company must reimburse mileage it has withheld.", "reimburse"),
    # the record's own demand takes the definite article; a rule the record breaks is asserted
    ("The demand must be rejected because it was not made under oath.", "under oath"),
    ("The requirements were not met: the demand was not made under oath.", "under oath"),
    ("Carrow's demand is deficient: a demand must be under oath and this one was not.", "deficient"),
    ("The guarantor is a listed entity and must be removed.", "listed entity"),
    ("A license is required to ship the servers to Lumora because its parent is in Hangzhou.", "license"),
    ("The March 4 email shows the parent is in Shenzhen, so the shipment needed a license.", "license"),
    ("The leak of the committee's position means management should be walled off.", "leak"),
    ("Where the director resigned, the company filed no 8-K, so the filing is late.", "late"),
    # a note's surprised aside before its arrow is not a question: the arrow carries the answer
    ("ASMs exempt?? -> no hiring role -> fails duties test.", "fails"),
    # a note's arrow ends the reported clause: what follows it is the writer's own conclusion
    ("GC told the board the plan complies -> wrong for the Harrow site, notice was late.", "notice was late"),
    # a checking verb that concludes, or whose reach a clause break ends, or that is not the opener
    ("Check the 8-K, the reason it gives is wrong.", "reason"),
    ("Review the indemnity: it reaches the landlord's own negligence.", "negligence"),
    ("We checked the 8-K and the reason it gives is false.", "false"),
    ("Checked the notice; it went out late.", "late"),
    # a recital of the work that reports what the work found, or concludes, asserts
    ("We reviewed the schedule and found that the notice went out late.", "late"),
    ("We reviewed the covenant and it is void under state law.", "void"),
    ("We reviewed the file; the notice went out late.", "late"),
])
def test_asserted(sentence, at):
    assert _stance(sentence, at).asserts


def test_keyword_list_paragraph_and_terse_note():
    attack = "Harbor lease, renewal option, deadline, lapse, Section 9.1, June 30, indemnity, negligence, broad-form."
    note = "Renewal option (s. 9.1) - deadline 6/30 about to lapse; ops think autumn; send notice now. Critical."
    prose = ("The plan contemplates federation on day one, access for the Shanghai team on day thirty, "
             "replication on day sixty, an expansion in Abu Dhabi and a pilot in 2026, and it does so without a license.")
    assert is_keyword_list(normalize(attack).text)
    assert not is_keyword_list(normalize(note).text)
    assert not is_keyword_list(normalize(prose).text)
    assert _stance("| Renewal option | deadline about to lapse, notice, calendar, ops | High |", "lapse", row=True).asserts


def _neg(sentence: str, at: str) -> str | None:
    text = normalize(sentence).text
    return negated_before(text, 0, text.index(at))


def test_negation_scope_pseudo_negations_and_clauses():
    assert _neg("The covenant is not void.", "void")
    assert _neg("Chen Yuhang does not involve 15 C.F.R. § 734.13.", "734.13")  # single letters are not words
    assert not _neg("The covenant is not only void but also penalised.", "void")
    assert not _neg("The covenant is no longer enforceable and is void.", "void")
    assert not _neg("No license was sought; the export was unlawful.", "unlawful")
    assert not _neg("Nothing was filed, but the covenant is void.", "void")
    assert not _neg("No minority vote -> void under the statute.", "void")  # a note's arrow ends the clause


def test_governing_negation_and_double_negation():
    text = normalize("It is not the case that the covenant is void, so the client must act.").text
    assert governed_by_negation(text, 0, text.index("must"))  # sentence-initial: the whole sentence
    text = normalize("Nothing in the file suggests that the covenant is void.").text
    assert governed_by_negation(text, 0, text.index("void"))
    text = normalize("The duty does not involve a primary duty that is not management.").text
    assert count_negators(text, 0, text.index("primary"), len(text)) == 2


@pytest.mark.parametrize("sentence,dismisses", [
    ("We do not consider this a concern.", True),
    ("We agree with management that no action is needed.", True),
    ("The servers are not a deal issue.", True),
    ("The underpayment has been corrected.", True),
    ("If the drivers are exempt from the FAA, the clause should be revised.", False),
    ("Restrict access so that it does not raise a discrimination issue.", False),
    ('The log calls it "not an issue", but the dinner was a negotiation.', False),
    ("This is not an issue for HR, but it is for the board.", False),
    ("The clause is not immaterial.", False),
    ("Bonus not in OT rate -> fine b/c payroll coded it discretionary.", True),
    ("The release looks fine.", True),
    ("Skip.", True),
    ("The penalty is a fine of $500 per violation.", False),
    ("Skip the release and go to the deductions, which are unlawful.", False),
    # a hurried note's offhand verdicts, apostrophes or not
    ("clause 6.14 is fine as drafted imo", True),
    ("honestly i dont think this is a real issue yet", True),
    ("the cure is available either way, so i don't think that's a big deal", True),
    ("fed at carteret is ok tho: the april group is outside the lookback", True),
    ("the GC pulled the memos in feb so thats not where the risk is anymore", True),
    ("i dont think we need to do anything on personnel", True),
    ("the hangzhou parent i don't think is an independent licensing problem anymore", True),
    ("suzhou guarantor hit. a guarantee isn't an export. note it, move on.", True),
    ("suzhou guarantor entity list hit i'd park -> it's a payment guarantee, no items go to it", True),
    ("it's only a payment guarantee -> not an export point, leave to credit team", True),
    ("the parent i don't think is disclosed anywhere, which breaches 6.1(c)", False),
    ("we'd park the servers in Kwai Chung -> an export to China", False),
    ("on who gets it though i'm less worried than mei-ling - 8.2 puts licensing on lumora", True),
    ("We are less worried about the timing than the parent, which makes the shipment licensable.", False),
    ("i'm less worried than mei-ling.", True),
    ("the destination is not the point: the parent is in Hangzhou", False),
    ("note it and we will move on to the deductions, which are unlawful", False),
    ("i dont think the exemption applies, so the drivers are owed overtime", False),
    ("the repayment clause is not ok", False),
    # a clean bill's verdicts
    ("Clause 5.4 worked as drafted: notice went out and no objection was received.", True),
    ("The point Ms. Castellanos noted on May 13 has therefore been overtaken by events.", True),
    ("We are comfortable that the committee has what it needs.", True),
    ("Read in context, this is ordinary deal pressure from a controller.", True),
    ("The transition letter is in a familiar form.", True),
    ("No written response or disclosure beyond the usual background section is warranted.", True),
    ("The arrangements are in good order and the deposit can go ahead.", True),
    ("Including him in the Form 8-K is accurate.", True),
    ("The two agreements raise no export concern.", True),
    ("The new hires need no license for the repository access their teams use.", True),
    ("Their H-1B transfer and STEM OPT arrangements require no action from Northlake.", True),
    ("The Abu Dhabi shipment required no filing.", True),
    # ... and what only looks like one
    ("Key custody no longer works as designed.", False),
    ("Meridian should tell HSB in writing that no release to China is acceptable.", False),
    ("The recusal clause and the 2021 wording are acceptable substitutes for Section 3.4.", False),
    ("We are comfortable only if the license issues before the deposit.", False),
    ("Section 6.1 requires no less than 60 days' notice, and none was given.", False),
    ("The engineers need no longer be screened once the license issues.", False),
    # someone else's dismissal, reported, is not the memo's; adopted, it is
    ("Derek says the guarantor needs no license.", False),
    ("The sales lead thinks this is not a problem.", False),
    ("Derek says the guarantor needs no license, and I agree.", True),
    ("I agree with Derek that the guarantor needs no license.", True),
    ("agree w/ derek, the guarantor needs no license", True),
    ("Derek said on Monday that the guarantor needs no license.", False),
    # an officer's certificate clears what it certifies; withheld, it clears nothing
    ("I certify that the validation deposit of May 20 was properly made.", True),
    ("We hereby certify that the transition letter may be delivered on September 12.", True),
    ("I cannot certify that the validation deposit of May 20 was properly made.", False),
    ("I am unable to certify that the transition letter may be delivered.", False),
    # a certificate's close
    ("The charge period is noted in the file, and no further step is required.", True),
    ("The April estimate calls for no recalculation.", True),
    ("A further step is required before the filing.", False),
    ("The cure calls for no more than a letter to the board.", False),
])
def test_dismissal_cues(sentence, dismisses):
    text = normalize(sentence).text
    assert bool(dismissal_cue(text, 0, len(text))) is dismisses


@pytest.mark.parametrize("text", [
    # a sentence that ends in an enumeration of figures
    "single $47,000 salary in all markets is below 2025 state exempt floors in california ($68,640), washington "
    "($77,968.80) and new york ($64,350 downstate; $60,405.80 upstate).",
    "timeline sets a 48-hour signing window with no extensions; fails il 14-day review and attorney-advice "
    "requirement, co 14-day separate notice, ma 10 business days, me 3 business days.",
    # the comma of a grouped number does not separate items
    "s.6 aclp stay-or-pay - $7,500 vs $1,150 actual cost, no proration, hits laid-off staff; final-pay deduction "
    "breaches flsa free-and-clear. high.",
    # a checklist line of short sentences joined by "and", with no comma between terms
    "[ ] pay discussion. sections 1.2 and 2.3 and manager guidance bar wage talk; nlra 8(a)(1) and state "
    "wage-discussion laws. remove and retract.",
    "[ ] authority to reject. resolutions 2 and 3 give review, negotiation and recommendation only, and the board "
    "keeps approve/disapprove. amend before signing.",
])
def test_a_sentence_that_ends_in_an_enumeration_is_not_a_bare_list(text):
    assert not is_keyword_list(text)


@pytest.mark.parametrize("text", [
    "asms, duties test, 19.8%, executive exemption, misclassified, $47,000, california, washington, new york, "
    "salary floor, deductions, 541.602, fluctuating workweek, key holders, off the clock",
    "harrow county, harrow county action, c.a. no. 2024-0598, june 10, 2024, pending litigation, diane okoro, mootness",
])
def test_a_comma_list_of_terms_is_a_bare_list(text):
    assert is_keyword_list(text)


@pytest.mark.parametrize("typed,negates", [
    ("the release isnt valid", True), ("the client doesnt have a license", True),
    ("the notice wasnt sent", True), ("the release is valid", False),
])
def test_a_contraction_typed_without_its_apostrophe_still_negates(typed, negates):
    text = normalize(typed).text
    assert bool(negated_before(text, 0, text.rindex(" ") + 1)) is negates


def test_a_restored_apostrophe_maps_back_to_the_memo_s_own_words():
    memo = "Note: i dont think so, thats it."
    norm = normalize(memo)
    assert norm.text == "note: i don't think so, that's it."
    start = norm.text.index("don't")
    lo, hi = norm.span_in_original(start, norm.text.index(" so"))
    assert memo[lo:hi] == "dont think"
