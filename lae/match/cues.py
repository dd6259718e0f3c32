"""Fixed cue lexicons of the grader (part of the grader's identity, hashed at freeze).

Cues are plain phrases compiled with the same term compiler as key terms.
"""

from __future__ import annotations

__all__ = ["DISMISSAL_V2", "IN_ORDER", "NEGATORS", "PSEUDO_NEGATIONS", "GOVERNING_NEGATION", "FORBIDDEN_SPEECH", "HEDGES", "HYPOTHETICAL",
           "REPORTED", "ADOPTION", "ARGUMENT_ADOPTED", "POINTS_UPHELD", "OTHER_MATTER", "LAW_IN_ABSTRACT", "COURTS_IN_GENERAL", "DEFINITION", "ESCALATION_V2", "SEVERITY_LEVEL_WORDS",
           "SEVERITY_LABELS", "PRIORITY_HEADING", "PRIORITY_COLUMN", "PRIORITY_CELL", "PRIORITY_CELL_LEVELS", "RATING_COLUMN", "RATING_CELL", "RATING_CELL_LEVELS", "STATUS_COLUMN", "STATUS_FAIL", "STATUS_PASS", "ITEM_PASS_MARK", "STATUS_LABEL", "TRIAGE_COLUMN", "TRIAGE_NO", "SEVERITY_LEXICON", "SEVERITY_ORDER", "DISMISSAL_CUES", "DISMISSAL_PATTERNS", "ESCALATION_CUES", "CORRECTION_CUES",
           "CORRECTION_CUES_AFTER", "VERDICT", "CHECKING_OPENER", "REVIEW_RECITAL", "REVIEW_FOUND", "VERDICT_LABEL", "VERDICT_CLEARS", "ARROW", "ANSWER", "ANSWER_CELL", "QUESTION_IN_ORDER", "QUESTION_WRONG",
           "QUESTION_MODAL",
           "FUNCTION_WORDS", "severity_terms_for"]

SEVERITY_ORDER = ("low", "medium", "high", "critical")
# A note's arrow ("X -> Y", "=>", "→"): it ends a clause and carries the same thought on.
ARROW = r"(?:->|=>|\u2192)"
_NOT_A_PENALTY = r"(?! (?:of|up to|per|for each)\b)" # A verdict line that clears the point its section tests ("**Verdict:** rejected", "Result: PASS",
# "Conclusion: not an issue"): the labelled line of a hypothesis trace or a check log. A bare "No." is
# not read: a brief answer's "No." answers a question and may state the problem.
VERDICT_LABEL = (r"[\W_]*(?:final |overall )?(?:verdict|result|outcome|conclusion|determination|disposition|"
                 r"assessment)[\W_]{0,4}[:\u2013\u2014-]")
VERDICT_CLEARS = (VERDICT_LABEL + r"[\W_]*(?:rejected|not confirmed|unconfirmed|unfounded|unsupported|ruled out|"
                  r"cleared|pass(?:ed|es)?|withdrawn|dropped|discarded|false positive|non-issue|no issue|not an issue|"
                  r"not a (?:problem|concern|risk|finding|violation)|"
                  r"no (?:problem|concern|risk|violation|action(?: needed| required)?|exceptions?(?: noted| found)?)|"
                  r"in order)(?![\p{L}\p{N}])")
 # "fine" the verdict, not "a fine of $500"

SEVERITY_LEXICON: dict[str, tuple[str, ...]] = {
    "critical": ("critical", "severe", "most serious", "gravest", "urgent", "top priority", "highest priority",
                 "highest risk", "immediate attention", "act immediately", "priority one"),
    "high": ("high risk", "high-risk", "high severity", "high priority", "serious", "significant risk",
             "significant exposure", "substantial risk", "substantial exposure", "major risk", "material risk",
             "material exposure", "risk is high", "exposure is high", "high exposure", "likelihood is high"),
    "medium": ("moderate", "medium risk", "medium severity", "medium priority", "elevated risk",
               "meaningful risk", "intermediate risk"),
    "low": ("low risk", "low-risk", "low severity", "low priority", "minor", "limited risk", "modest risk",
            "limited exposure", "risk is low", "exposure is low"),
}


def severity_terms_for(level: str) -> list[str]:
    """Lexicon terms of ``level`` and its adjacent levels (a memo may reasonably
    grade one notch up or down)."""
    idx = SEVERITY_ORDER.index(level)
    levels = SEVERITY_ORDER[max(0, idx - 1): idx + 2]
    out: list[str] = []
    for lvl in levels:
        out.extend(SEVERITY_LEXICON[lvl])
    return list(dict.fromkeys(out))


# A sentence with one of these declines the issue it names.
DISMISSAL_CUES: tuple[str, ...] = (
    "not an issue", "no issue", "non-issue", "not a concern", "no concern", "not a problem", "no problem",
    "poses no", "presents no", "raises no", "does not raise", "no material risk", "no meaningful risk",
    "no real risk", "not material", "immaterial", "not relevant", "irrelevant", "can be disregarded",
    "can be ignored", "may be ignored", "need not be escalated", "does not need to be escalated",
    "need not be addressed", "no action is needed", "no action needed", "no action is required",
    "no further action", "does not warrant", "do not warrant", "not warrant", "we see no", "nothing to flag",
    "not a risk", "no risk", "not worth", "benign", "unproblematic", "no exposure", "not escalate",
    "decline to escalate", "declined to escalate", "not a red flag", "no red flag", "not a finding",
    "not an exposure", "not problematic", "does not present", "we are not concerned", "not of concern",
    "no cause for concern", "not a live issue", "not a current issue", "do not view", "does not view",
    "would not treat", "not treat this as", "no compliance concern", "no export control concern", "no legal concern",
    "no basis for concern", "not an area of concern", "nothing further is required",
    "is compliant", "are compliant", "remains compliant", "appears compliant",
)

# Shapes of decline the phrase list cannot enumerate ("is not an export issue",
# "raises no compliance concern"); written by us, never by key authors.
DISMISSAL_PATTERNS: tuple[str, ...] = (
    r"(?<![\p{L}\p{N}])not (?:an? |the )?(?:(?!(?:only|just|merely|mere|simply|least|minor|small|trivial|insignificant|theoretical|hypothetical|remote)\b)[\p{L}-]+ ){0,2}(?:issue|concern|problem|risk)s?(?![\p{L}\p{N}])",
    r"(?<![\p{L}\p{N}])(?:raises|presents|poses|creates) no (?:[\p{L}-]+ ){0,2}(?:issue|concern|problem|risk|exposure)s?(?![\p{L}\p{N}])",
)

# A window with one of these escalates whatever it names.
ESCALATION_CUES: tuple[str, ...] = (
    "risk", "exposure", "violation", "violate", "liability", "liable", "breach", "must", "should",
    "recommend", "urgent", "remediate", "remediation", "non-compliant", "noncompliance", "concern",
    "problem", "unlawful", "illegal", "invalid", "unenforceable", "penalty", "penalties", "escalate",
    "red flag", "critical", "serious", "significant", "issue", "danger", "defect", "deficien",
)

# An application note: the label that turns a glossary entry, a rule or a background paragraph to this matter
# ("**Advance notice:** ... *Here:* the letter went out late.", "**In this matter:** ...", "Application: ...",
# "As applied here: ..."). What follows it in its paragraph, item or row is the memo's reading of the record, not a
# recital, even in a glossary or background section.
APPLICATION_NOTE = (r"[\s*_]*(?:here|in (?:this|our|the present) (?:matter|file|case|deal|transaction|record)|"
                    r"(?:as )?applied(?: here| to (?:this|the) (?:matter|file|facts|record))?|application(?: here| to "
                    r"(?:this|the) (?:matter|file|facts|record))?|relevance(?: here)?|on (?:these|the|our) facts)"
                    r"[\s*_]*(?:[:\u2013\u2014]|\s-\s|--)[\s*_]*")  # (the text is normalised: a dash reads " - ")

# A bare verdict that the sentence before it is false, as a true-or-false quiz or a myth-buster writes ("The rule
# took effect in 2024. False."): each is also a correction cue below.
DENIAL_VERDICTS: tuple[str, ...] = ("false", "not true", "untrue", "myth", "wrong", "incorrect")

# A prohibited phrasing preceded in its sentence by one of these is being corrected, not made.
CORRECTION_CUES: tuple[str, ...] = (
    "incorrect", "wrong", "mistaken", "erroneous", "not true", "not correct", "no longer", "not the case",
    "contrary to", "rather than", "instead of", "do not assume", "should not assume", "cannot assume",
    "misconception", "misread", "inaccurate", "not accurate", "false", "it is not", "untrue", "would be an error",
    "myth",  # "Myth 1: 'the statute gives us ten days'": a belief set up to be corrected
)

# ... or followed by one of these ("the view that X is incorrect").
CORRECTION_CUES_AFTER: tuple[str, ...] = (
    "is incorrect", "is wrong", "is mistaken", "is erroneous", "is not correct", "is untrue", "is inaccurate",
    "is not accurate", "is a misreading", "is a misconception", "would be incorrect", "would be wrong", "is a myth",
)

# Words that make a run of terms read as a sentence rather than a keyword list.
FUNCTION_WORDS: frozenset[str] = frozenset(
    "a an the of to in on at by for with from as is are was were be been being that this these those it its "
    "which who whom whose and or but because since although though if unless so than then there their they "
    "we our us you your he she his her has have had do does did will would shall should must may might can "
    "could not no nor any each every all some such into onto under over about against between through during "
    "before after above below upon within without".split()
)


# --- grader v2: assertion cues (SPEC section 3, "Assertion") ---------------------------------
# Each list is a set of regular-expression alternatives over normalized (case-folded) text,
# written by the project (never by key authors). Word boundaries are added by polarity.py.

# The point declared in order ("is duly authorized", "are exempt"); a dismissal unless the clause's
# subject is denied ("Neither deduction is permitted": polarity.dismissal_holds).
IN_ORDER = (r"(?:is|are|was|were) (?:duly |properly |fully )?(?:authori[sz]ed|permitted|permissible|lawful|compliant|"
            r"exempt|cured|resolved|(?:in (?:good |proper |full )?order|accurate|acceptable)"
            r"(?=\s*(?:[.;:,!?)]|$|(?:as|and|but|here|now|in|under|for|because|since|so)\b)))")

# Dismissal: the memo concludes the point is not a problem (anywhere in the discussion).
DISMISSAL_V2: tuple[str, ...] = (
    r"we do not (?:consider|regard|treat|view|see|think|believe|expect)",
    r"we (?:would|will) not (?:treat|regard|escalate|pursue|raise|recommend)",
    r"(?:does|do|did) not (?:indicate|suggest|amount to|rise to|create|give rise to|warrant|require|need)",
    r"we see no", r"we find no", r"we have no (?:concern|reason)", r"see no (?:reason|need|basis)",
    r"(?:do not|don't|did not|didn't) see (?:an? |any )?(?:\S+ )?(?:issue|problem|concern|risk|exposure)",
    r"we agree with (?:management|the company|the client|hr|the business|that|their|its|his|her)",
    r"express no view", r"draw no conclusion", r"no conclusion", r"not worth (?:raising|pursuing|escalating)",
    IN_ORDER, r"(?:is|are|was|were) (?:duly |properly |fully )?moot",
    r"nothing (?:for \S+ |further )?to (?:address|do|flag|report)", r"nothing further",
    r"need not", r"no need(?! to know)", r"(?:do|does|would) not recommend",
    # "the new hires need no license", "the shipment required no filing": what is not needed is no problem
    r"(?:needs?|needed|requires?|required) no(?= (?!longer|later|more|less|fewer|sooner|earlier)\p{L})",
    r"not a (?:deal|real|live|current|material|significant|genuine|legal) (?:issue|concern|problem|risk)",
    r"(?:adequately|fully|sufficiently) (?:addresses|covers|protects|mitigates|cures)",
    r"no further action", r"no action (?:is |was )?(?:needed|required|necessary|warranted)",
    # a certificate's close: "no further step is required", "the estimate calls for no recalculation"
    r"no further (?:steps?|measures?|work) (?:is |are |was |were )?(?:needed|required|necessary|warranted)",
    r"calls? for no(?= (?!longer|later|more|less|fewer)\p{L})",
    # an audit procedure's clean result: "No exceptions noted." closes the procedure it ends
    r"no exceptions? (?:were |was )?(?:noted|found|identified|observed)",
    r"(?:was|were|has been|have been|is|are) (?:already |since |fully )?(?:corrected|remedied|remediated|resolved|closed|settled(?! (?:\p{L}+ )?law\b| that\b)|cured)",
    r"not (?:escalate|flag|pursue)",
    r"can (?:safely )?be (?:disregarded|ignored|set aside)", r"(?:poses?|presents?|raises?|creates?) (?:no|little)",
    r"(?:is|are) (?:not|no longer) (?:a |an )?(?:issue|concern|problem|risk|exposure)s?",
    r"not (?!(?:eliminate|erase|resolve|cure|remove|fix|solve|avoid|reduce|mitigate|address|end|undo|lessen|"
    r"diminish|extinguish|neutrali[sz]e)\b)(?!(?:an? )?(?:mere|merely|just|only|simply)\b)"  # "violations, not mere risk"
    r"(?:an? |the )?(?:\S+ ){0,2}(?:issue|concern|problem|risk|exposure)s?",
    r"(?:no|little|minimal|negligible) (?:real |material |meaningful |practical |legal )?(?:risk|exposure|concern|issue)",
    r"(?:immaterial|irrelevant|benign|unproblematic|a non-issue|non-issue|overstated|exaggerated|unremarkable)",
    r"(?:usual|standard|customary|market) (?:terms?|practice|provisions?)",
    # a note's verdict that the point is in order: "-> fine b/c ...", "looks fine", "skip."
    r"(?:looks?|seems?) (?:\S+ )?fine" + _NOT_A_PENALTY, r"fine (?:as is|as it stands|for now|as drafted|as written)",
    ARROW + r" ?fine" + _NOT_A_PENALTY, r"(?:^|(?<=[.;:!] ))skip(?: it| this| that)?(?=[.;!]|$)",
    # "-- fine because ...", "I think it's ok", "that's fine actually", "not that worried about"
    r"(?:\u2014|\u2013|--| - ) ?fine" + _NOT_A_PENALTY,
    r"(?:it's|that's|it is|that is|this is) (?:probably |actually |all |perfectly )?(?:ok|okay|fine)"
    + _NOT_A_PENALTY + r"(?! to\b)",
    r"(?:not|n't) (?:that |too |very |overly |really )?(?:worried|concerned) about(?=\s*(?:[.;!]|$))",
    # "i'm less worried than mei-ling -": less than the colleague who raised it, not less than some other point
    r"(?:i'm|i am|we're|we are) (?:much |far )?less (?:worried|concerned)(?: than (?:[\p{L}'-]+ ?){1,2})?"
    r"(?=\s*(?:[.;:!]|-|\u2014|$))",
    # a hurried note's offhand verdict: "i don't think that's a big deal", "this one is ok tho"
    # ... and with the point put first: "the hangzhou parent i don't think is an independent licensing problem"
    r"(?:i|we) (?:do not|don't) think (?:(?:this|that|it|there)(?:'s| is| was| are)?|is|are|was) (?:\S+ ){0,3}"
    r"(?:issue|problem|concern|deal|risk|exposure)s?",
    r"(?:i|we) (?:do not|don't) think (?:we|you|they) (?:need|have) to (?:do|change|worry)",
    r"(?:note|log|park) (?:it|this|that)(?:,|;| and| then)? (?:and |then )?move on",
    # "... hit i'd park ->", "not an export point": a note shelving the point it follows
    r"(?:i'd|i would|we'd|we would|let's|lets|i'll|we'll) park(?: (?:it|this|that))?(?= ?(?:->|[.;:,!]|$|for now|until))",
    r"not an? (?:[\p{L}-]+ ){0,2}point(?![\p{L}])",
    # a clean bill's verdicts: "worked as drafted", "overtaken by events", "we are comfortable that",
    # "is ordinary deal pressure", "No written response ... is warranted"
    r"(?:worked|works|operated|operates|functioned|functions) as (?:drafted|intended|designed|written|planned)",
    r"(?:can|may) (?:stand|proceed|go ahead) as (?:drafted|written|planned|proposed|is)",
    r"(?:has|have|had) (?:\S+ )?been overtaken by events",
    r"we (?:are|remain|were) (?:fully |entirely |quite )?comfortable(?! (?:only|if|unless)\b)",
    r"(?:is|are) (?:in )?(?:an? )?(?:ordinary|familiar|routine|standard|customary|usual|normal) (?:[\p{L}-]+ ){0,2}"
    r"(?:form|practice|mechanism|provisions?|terms?|clauses?|arrangements?|pressure|features?|structures?)",
    r"no (?:[\p{L}-]+ ){0,10}(?:is|are|was|were) (?:warranted|called for)",
    r"(?:no|not a|not that) big deal", r"(?:is|are|looks?|seems?) (?:ok|okay)(?: tho| though| here| for now)?(?=\s*(?:[.;:,!]|$))",
    # an officer's certificate clears what it certifies: "I certify that the deposit was properly made" (not "I
    # cannot certify that ...", which withholds it)
    r"(?:i|we) (?:hereby |can |do )?(?:certify|attest)(?: to (?:you|the \p{L}+))? that",
    # a checklist's tick: the item is in order ("✅ Nine remote staff — outside the count")
    # (with the word after it: the family's gate indexes where matches start, two characters at least)
    r"(?<=(?:^|\n)[ \t*+-]*)\u2705 \S+",
)

# Negators whose forward scope (a few words, within the clause) denies what follows.
NEGATORS: tuple[str, ...] = (
    r"not", r"no", r"never", r"none", r"nothing", r"neither", r"nor", r"cannot", r"can't", r"isn't", r"aren't",
    r"wasn't", r"weren't", r"doesn't", r"don't", r"didn't", r"won't", r"wouldn't", r"shouldn't", r"hardly",
    r"unlikely to", r"free of", r"absent any",
)
# Negator forms that do not deny ("not only", "no longer compliant", "whether or not").
PSEUDO_NEGATIONS: tuple[str, ...] = (
    r"not only", r"not just", r"not merely", r"not (?:a )?mere", r"no longer", r"no doubt", r"not limited to", r"or not", r"not yet",
    r"nothing less", r"no later than", r"not later than", r"no more than", r"not more than", r"no less than",
    r"not less than", r"no earlier", r"not until",
)
# A governing negation: "Nothing in the file suggests that ...", "We do not say that ...".
GOVERNING_NEGATION: tuple[str, ...] = (
    r"(?:nothing|no one|none|no evidence|no indication|no basis|no reason)\b[^.;:]{0,80}?\b(?:that|whether|to)",
    r"(?:we|i|it|this memo|the memo) (?:do|does|did|would|will|cannot|can't|could) not (?:say|suggest|claim|"
    r"contend|assert|argue|think|believe|conclude|mean|imply|accept|agree)",
    r"nor (?:does|do|did|is|are|was|were|would|can|could)", r"(?:is|was) not (?:the case|true|correct) that",
    r"it is (?:incorrect|wrong|mistaken|not true|not correct) (?:to say )?that",
)
# A speech act forbidden ("Do not state in anything we send that ...", "never suggest that ...", "avoid saying"):
# what follows is a claim the memo tells the client not to make. Read for prohibited claims only: for a finding the
# same advice raises it ("do not assert the exception in any filing": the exception fails).
FORBIDDEN_SPEECH: tuple[str, ...] = (
    r"(?:do not|don't|never|must not|should not|shall not|may not) (?:\S+ )?(?:state|say|suggest|claim|assert|imply|"
    r"represent|write|concede|admit|describe|characteri[sz]e)(?![\p{L}])",
    r"(?:avoid|refrain from) (?:stating|saying|suggesting|claiming|asserting|implying|representing|conceding|admitting)",
)
# Sentence-level: the point is a question, a possibility to look at, or left open.
HEDGES: tuple[str, ...] = (
    r"whether(?! or not)", r"in (?:certain|some) (?:circumstances|cases)", r"depending (?:on|upon)", r"where applicable", r"if applicable",
    r"(?:may|might|could) be (?:required|needed|necessary|applicable|relevant|triggered|at issue)",
    r"(?:could|may|might) (?:potentially |possibly |also )?(?:raise|implicate|warrant|merit|be implicated|be relevant|"
    r"be worth|have been|give rise to questions|need to be)", r"raises? questions?", r"potentially", r"possibly",
    r"(?:should|must|may|might|could|would) (?:also )?be (?:reviewed|evaluated|assessed|considered|examined|confirmed|"
    r"checked|monitored|revisited|explored)", r"(?:consider|evaluate|review|assess|determine|confirm) whether", r"open question", r"question (?:is|remains)", r"unclear", r"uncertain whether",
    r"(?:may|might|could) wish to", r"might want to", r"worth (?:considering|asking|checking)",
    r"we have not (?:yet )?(?:assessed|analy[sz]ed|reviewed|considered|determined|formed)",
    r"(?:to be|yet to be) (?:determined|confirmed|assessed|considered)", r"remains to be seen",
    r"left (?:to|for) (?:the|a|another|other)", r"outside (?:the |our |this )?scope",
    r"we express no", r"not (?:yet )?clear",
    r"(?:check|confirm|verify|revisit|look into) (?:this |it |that )?(?:later|tomorrow|tmrw|next week)",
)
# A sentence that opens by telling the reader to look at something ("Check B&P 16600 for San Diego",
# "Review the 8-K wording", "Consider release void under 206.5") leaves its point open: an item of a
# to-check list, not a finding. Read only at the sentence's start; a clause break ends its reach. A verb of
# looking ("check", "review") yields to a verdict in general words in the sentence ("Check the 8-K, it is
# wrong" concludes); a verb of weighing ("consider", "assess") takes its verdict as the thing to weigh.
CHECKING_OPENER = (r"[\W_]*(?:(?:\d{1,2}|[a-h])[.)]\s+)?(?:(?:double[- ])?check|verify|review|query|look (?:at|into)|"
                   r"ask about|monitor|watch|(?P<weigh>consider|assess|evaluate|investigate|explore|examine|research|"
                   r"think about))(?![\p{L}\p{N}-])")
# A sentence that recites the work done ("We reviewed the licence, the escrow agreement and ...", "Our review
# covered ...", "As you asked in your email of May 8, 2025, we reviewed ...") lists the record, not a view of it:
# a recital, unless it reports what the work found ("... and found", "which shows") or holds a verdict in general
# words ("We reviewed the 8-K, which is wrong" concludes); a clause break ends its reach.
REVIEW_RECITAL = (r"[\W_]*(?:[^.;:!?\n]{0,80}?,\s*|over the (?:past|last) (?:\p{L}+ ){0,2})?(?:(?:we|i) (?:have |also )?"
                  r"(?:reviewed|read|examined|went through|looked at)|(?:our|my) (?:review|work|examination) "
                  r"(?:covered|included|encompassed|took in|extended to))(?![\p{L}])")
REVIEW_FOUND = (r"(?<![\p{L}])(?:found|finds?|conclude[ds]?|determined|shows?|showed|shown|reveal(?:s|ed)?|"
                r"identified|establish(?:es|ed)?|confirm(?:s|ed)?|indicates?|suggests?)(?![\p{L}])")
HYPOTHETICAL: tuple[str, ...] = (
    r"were (?:\S+ ){0,4}to\b", r"if (?:\S+ ){0,8}(?:were|had been)\b", r"hypothetical(?:ly)?", r"in theory",
    r"theoretically", r"would only (?:be|become|arise)", r"in the unlikely event",
)
# Another person's (or document's) view, not adopted: the cue must not have "we"/"our" as its subject.
REPORTED: tuple[str, ...] = (
    r"says?", r"said", r"states? that", r"stated", r"notes? that", r"noted", r"argues?", r"argued", r"believes?",
    r"believed", r"told", r"tells", r"asserts?", r"asserted", r"claims? that", r"claimed",
    r"contends?", r"contended", r"maintains? that", r"maintained",
    # the answers and recollections minutes record ("Ms. Siddiqui recalled her note on ...; Mr. Osei answered that ...")
    r"recall(?:s|ed) (?:that|her|his|their)", r"answered that", r"replied that", r"responded that", r"observed that",
    r"takes? the (?:view|position)", r"took the (?:view|position)", r"according to",
    r"(?:\S+'s?|their|his|her) (?:view|position|understanding|assessment|opinion|reading)(?:, [^,.;]{1,80},)? (?:is|was)",
    r"in (?:the )?(?:\S+'s?|their|his|her|its) (?:view|opinion)", r"might say", r"may say", r"would say",
    r"some (?:readers|commentators|people|observers) (?:might|may|would|say|argue)", r"thinks", r"characteri[sz]e[sd]",
    # a document reciting: "the agreement provides", "Section 4.2 states", "the email says"
    r"(?:agreement|section|clause|policy|plan|contract|letter|e-?mail|memo|document|term sheet|schedule|handbook|"
    r"minutes|deck|report|notice|offer|form|exhibit|article|resolution|charter|bylaws?|record|file|log|roster|"
    r"covenant|representation|certificate|certification|draft|application|filing|proposal)s? "
    r"(?:\S+ ){0,3}(?:provides?|providing|reads|recites?|reciting|sets? out|setting out|lists|records|stipulates?|"
    r"describes?|acknowledg(?:es|ing|ed)|assum(?:es|ing)|states?|stating|represents?|representing|certif(?:ies|ying))",
    r"provides? that", r"provided that",
    # another reviewer's work the memo reviews: "the first note treats the sale as a violation", "the earlier memo
    # flags the lease" (the memo's own verdict on it is a separate sentence; "rightly" adopts it)
    r"(?:first|earlier|prior|previous|original|other|junior's|associate's|colleague's) (?:note|memo|review|reviewer|"
    r"draft|opinion|advice|analysis)s? (?:\S+ ){0,3}(?:treats?|flags?|lists|finds?|concludes?|calls?|regards?|"
    r"considers?|rates?|sees?|counts?|reads?|describes?|characteri[sz]es?|views?)(?![\p{L}])",
)
ADOPTION: tuple[str, ...] = (
    r"we agree", r"we concur", r"we share", r"correctly", r"rightly", r"accurately", r"we accept", r"as we",
    r"and we", r"we think", r"we believe", r"we consider", r"in our view", r"our view", r"we conclude",
    r"i agree", r"i concur", r"i think", r"i believe", r"i conclude", r"in my view", r"agreed? w(?:ith|/)",
)
# The memo's own rating of an argument it reports ("BIS could argue that ... This is a strong argument.",
# "... makes this a strong argument", "Strength: strong"): in the same item or paragraph, it adopts the argument.
ARGUMENT_ADOPTED = (r"(?<![\p{L}])(?:(?:this|that|it|the (?:argument|claim|point|theory|case))(?:'s| is| would be| looks| seems)"
                    r" (?:a |an )?|makes (?:this|it|the (?:argument|claim|case)) (?:a |an )?|strength: |assessment: |"
                    r"(?<=^|[.:;!]\s{0,3}|\|\s{0,3}))(?:very |fairly |reasonably |genuinely |quite )?"
                    r"(?:strong|compelling|powerful|credible|solid|winning)(?: argument| claim| point| theory| case| one)?"
                    r"(?=\s*(?:[.;:,!|]|$|on the |here|given|because|since))")
# A verdict that upholds reported points by their numbers ("Points 1, 3 and 4 would succeed", "Points 1 through 6
# would very likely succeed", "Point 6 succeeds on liability"): a devil's-advocate memo adopts the other side's case
# it set out as numbered items. Group 1 is the numbers ("1, 3 and 4", "1 through 6", "1-7").
POINTS_UPHELD = (r"(?<![\p{L}])points? (\d{1,2}(?:(?:,| and|, and| to| through| ?[-\u2013])\s*\d{1,2})*)"
                 r"(?: (?:would|will|should|do|all))?(?: (?:very |most |quite )?likely| largely| probably| clearly| plainly)?"
                 r" (?:succeed|prevail|win|hold up|stand)s?\b")
OTHER_MATTER: tuple[str, ...] = (
    r"(?:another|a different|an unrelated|a prior|a separate|a previous|an earlier|other) (?:matter|client|transaction|deal|case|engagement)",
    r"for comparison", r"by way of comparison", r"by analogy",
    r"in other (?:industries|contexts|cases|matters|companies|jurisdictions|transactions|deals)",
    r"some (?:companies|employers|businesses|firms|clients|acquirers|buyers|boards|exporters)",
    r"(?:generally|in general|as a general (?:matter|rule)|typically|ordinarily|usually|as a rule)",
)
# The law stated in the abstract, as the subject of its sentence: "Labor Code 3700 requires
# employers to ...", "The FLSA applies ...", "Employers must ..." (checked at a sentence start only).
LAW_IN_ABSTRACT: tuple[str, ...] = (
    # an audit workpaper's statement of the rule it tests: "Criteria: Policy 5.4 requires reasonable break time ..."
    r"(?:criteria|criterion|standard applied|requirement tested|rule tested)\s*:",
    r"(?:act|code|rule|regulations?|statute|law|flsa|ear|itar|warn act|title vii|ada|pwfa)(?: (?:section |§ ?)?[\d.()a-z]+)? "
    r"(?:requires|provides|prohibits|applies|governs|permits|defines|imposes|covers|allows|bars|uses|calls for|"
    r"mandates|demands|contemplates|establishes|sets out)",
    r"(?:employers|companies|acquirers|exporters|parties|boards|directors|committees) (?:must|may|are required to|cannot|"
    r"generally|sometimes|often|typically|frequently|usually|commonly|will|would|should)",
    r"(?:the |a |an )?(?:defendants?|plaintiffs?|company|corporation|director|board|acquirer|employer|exporter|"
    r"stockholder|stockholders|fiduciaries|fiduciary|controller|controlling stockholder) "
    r"(?:must|bears?|has the burden|have the burden|is required to|are required to)(?= (?:show|prove|demonstrate|establish))",
    r"(?:plaintiffs|private plaintiffs|claimants|regulators|agencies) (?:may|can|could|often|have|generally)",
    # a rule put of any one of a kind: the indefinite article makes the subject generic ("A demand must be in
    # writing", "an attorney acting for the stockholder must provide ..."); the record's own demand takes "the"
    # (a noun phrase: no verb or conjunction before the modal, "the guarantor is a listed entity and must be removed")
    r"(?:a|an|any|every|each)(?: (?!(?:is|are|was|were|be|been|and|or|but|has|have|had|so)\b)\p{L}[\p{L}-]*){1,6} "
    r"(?:must|shall|has to|need not)",
    # how the rules just stated are applied ("These requirements are strictly enforced")
    r"(?:these|those|such|the) (?:requirements|formalities|rules|conditions|deadlines|standards|tests) (?:are|is) "
    r"(?:\p{L}+ )?(?:enforced|applied|construed|interpreted|policed)",

)
# What courts or the case law do in general, anywhere in the sentence ("Delaware courts have required ...").
COURTS_IN_GENERAL: tuple[str, ...] = (
    r"(?:courts?|supreme court|chancery court|court of chancery|case law|the case law|commentators|regulators) "
    r"(?:\S+ ){0,2}(?:have|has|generally|often|frequently|routinely|tend to|held|hold|reviewed|review|applied|apply|"
    r"required|require|found|find|considered|consider|treated|treat|looked|look)",
    r"\S+ (?:\S+ )?(?:have|has) been the subject of",
)
DEFINITION: tuple[str, ...] = (
    r"means", r"refers to", r"(?:is|are) defined (?:as|in)", r"shall mean", r"as used (?:in|here)", r"stands for",
)
# Escalation in the same sentence as a distractor's subject (v2: same sentence only).
ESCALATION_V2: tuple[str, ...] = (
    r"risks?", r"exposure", r"violat\S*", r"liabilit\S*", r"liable", r"breach\S*", r"unlawful", r"illegal",
    r"invalid", r"unenforceable", r"penalt\S*", r"red flag", r"non-?compl\S*", r"must be (?:addressed|fixed|remedied|escalated|renegotiated|terminated)",
    r"should be (?:addressed|fixed|remedied|escalated|renegotiated|terminated)",
    r"(?:we )?recommend\S*", r"(?:key|major|real|serious|significant|material|legal) (?:issue|concern|problem)s?",
    r"critical", r"(?:high|medium|moderate) (?:risk|priority|severity)", r"defect\S*", r"deficien\S*",
    r"problematic", r"vulnerab\S*", r"escalat\S*",
)
# Severity written as a label: "Severity: High", "(critical)", "Risk: high", "High -".
_SHORT_LEVELS: dict[str, str] = {"crit": "critical", "hi": "high", "med": "medium", "lo": "low"}  # "sev hi", a cell "Med"
SEVERITY_LEVEL_WORDS: dict[str, str] = {"critical": "critical", "high": "high", "medium": "medium",
                                         "moderate": "medium", "low": "low", "severe": "critical", **_SHORT_LEVELS}
# A table column that rates each row ("Severity", "Risk", "Rating", "Sev", "Impact", "RAG", or a one-letter
# "I"/"L" likelihood-impact pair), and the short values a busy writer puts in it: "H", "Med", "Red", "4/5".
RATING_COLUMN = r"^\W*(?:severity|sev\.?|risk(?: level| rating| score)?|rating|rag|impact|likelihood|exposure|i|l)\W*$"
RATING_CELL_LEVELS: dict[str, str] = {
    **_SHORT_LEVELS, "h": "high", "red": "high", "m": "medium", "amber": "medium", "l": "low", "green": "low",
    "5": "critical", "4": "high", "3": "medium", "2": "low", "1": "low",
}
RATING_CELL = r"^\W*(?P<level>crit|hi|h|red|med|m|amber|lo|l|green|[1-5])(?:\s*/\s*5)?\W*$"
# A compliance matrix: a column that says whether each row's requirement is met ("Status", "Compliant?",
# "Met?", "Assessment", "RAG status"). A cell opening with a failing value ("Not met", "Partly met",
# "Non-compliant", "Fail", "No", "Gap", "\u2717") says the row's point is a problem, as a rating does; a cell
# holding only a passing value ("Met", "Compliant", "Pass", "Yes", "\u2713"; a closing one, "Closed", "Resolved",
# "Cleared", a closing checklist's "Done", "Complete", "Waived", "Not applicable", "N/A", "No issue", "In order") says it
# is not.
STATUS_COLUMN = (r"^\W*(?:(?:compliance|current|rag|overall) )?(?:status|complian(?:t|ce)|compl(?:ies|y)|met|meets?"
                 r"(?: (?:the )?(?:requirement|standard|test))?|pass(?:\s*/\s*fail)?|result|assessment|outcome|"
                 r"conform(?:s|ity|ance)?|satisfied|ok|verdict|gap)\W*$")
_STATUS_FAILS = (r"not (?:yet )?(?:met|compliant|satisfied|ok|okay|in place|done|achieved|conforming)|un(?:met|satisfied)|"
                 r"(?:partly|partially|part)[- ](?:met|compliant|satisfied|in place)|partial(?:ly)?|"
                 r"non-?complian(?:t|ce)|non-?conform\S*|fail(?:s|ed|ing)?|no(?=[\W_]*$|\s*[-\u2013\u2014:;,.(])|"
                 r"gap(?![\W_]*(?:none|nil|n/?a)\b)|missing|deficient|breach(?:ed)?|at risk|[\u2717\u2718\u274c\u2715]")
STATUS_FAIL = r"^[\W_]*(?P<status>" + _STATUS_FAILS + r")(?![\p{L}\p{N}])"
STATUS_PASS = (r"^[\W_]*(?:met|compliant|complies|conforms?|pass(?:es|ed)?|yes|ok|okay|satisfied|in place|"
               r"achieved|closed|resolved|cleared|done|complete(?:d)?|waived|not applicable|n/?a|no issues?|not an issue|"
               r"no concerns?|in order|"
               r"no action(?: (?:needed|required))?|[\u2713\u2714\u2705])(?:[\W_]*$|\s*[-\u2013\u2014:(])")
# A checklist item's leading pass mark ("[ok] LUMORA hit - false pos.", "[\u2713] notice served", "\u2713 ..."): its
# point is in order, as a status column's "Met" says. "[x]" is not read: a ticked box means done as often as failed.
ITEM_PASS_MARK = r"[\s*]*(?:\[\s*(?:ok|okay|pass(?:ed)?|fine|[\u2713\u2714\u2705])\s*\]|[\u2713\u2714\u2705])"
# A triage column asks of each row whether its point deserves attention ("Worth a look?", "Escalate?",
# "Action needed?", "Concern?", "Real issue?"): a negative answer ("No", "Probably not", "Unlikely") sets the
# row's point aside as a passing status does; "Yes" or "Maybe" adds nothing to what the row itself says.
# A table column of another party's position ("Their draft / position", "Counterparty's view", "Management
# position"): what its cells say is that party's, reported, not the memo's own view (SPEC section 3).
OTHER_SIDE_COLUMN = (r"^\W*(?:their|the other side'?s?|other side'?s?|counterpart(?:y|ies)'?s?|opposing (?:party|counsel)'?s?|"
                     r"management'?s?|(?:the )?business(?: team)?'?s?|regulator'?s?|claimants?'?s?|plaintiffs?'?s?)"
                     r"(?: current| opening| first| initial| likely| proposed)?"
                     r" (?:draft|position|view|proposal|ask|demand|argument|stance|plan|line|request|offer|case)s?\b")
TRIAGE_COLUMN = (r"^\W*(?:is (?:it|this) |an? )?(?:worth (?:a (?:closer |second |further )?look|pursuing|raising|"
                 r"flagging|escalating|chasing|(?:a )?follow(?:ing)?[- ]?up|(?:the )?(?:time|effort|cost))|"
                 r"escalate|act(?:ion)?(?: (?:needed|required|now))?|needs? (?:action|attention|follow[- ]?up|review)|"
                 r"concern(?:ed|ing)?|flag(?:ged)?|pursue|follow[- ]?up|investigate|"
                 r"(?:real |live |genuine )?(?:problem|issue|risk|exposure)|material)\W*\?[\W_]*$")
TRIAGE_NO = (r"^[\W_]*(?:no|nope|probably not|likely not|almost certainly not|unlikely|not really|doubtful|"
             r"not (?:worth it|needed|required|now)|no action(?: (?:needed|required))?|none)"
             r"(?:[\W_]*$|\s*[-\u2013\u2014:;,.(])")
# The same verdict as a list item's label: "Status: Not met", "Compliance - partly met".
STATUS_LABEL = (r"(?<![\p{L}])(?:compliance |current )?(?:status|compliance|assessment|outcome)\s*[:=\u2013\u2014-]\s*\**\s*"
                r"(?P<status>" + _STATUS_FAILS + r")(?![\p{L}\p{N}])")
# A priority column ("P", "Pri", "Priority") coded "P0"-"P4": P0 critical, P1 high, P2 medium, P3 and below low
# (a bare number there is a rank, not a risk score, and is not read).
PRIORITY_COLUMN = r"^\W*(?:priority|prio\.?|pri\.?|p)\W*$"
PRIORITY_CELL = r"^\W*p(?P<level>[0-4])\W*$"
PRIORITY_CELL_LEVELS: dict[str, str] = {"0": "critical", "1": "high", "2": "medium", "3": "low", "4": "low"}
# A heading that groups a register's rows by urgency ("Fix now", "Fix this quarter", "Watch") rates them.
PRIORITY_HEADING_LEVELS: dict[str, str] = {
    r"fix now|act now|(?:do|act|fix) (?:immediately|today|this week)|immediate(?: actions?| steps?)?|urgent|"
    r"critical|high(?: priority| risk)?|red(?: flags?)?|priority (?:1|one)|must[- ]fix|stop[- ]ship": "high",
    r"fix (?:this|next) (?:quarter|month)|short[- ]term|medium(?: priority| risk)?|amber|"
    r"(?:next|within) (?:30|60|90) days|priority (?:2|two)": "medium",
    r"watch(?: ?list)?|monitor(?:ing)?|low(?: priority| risk)?|green|for information|nice to have|"
    r"priority (?:3|three)": "low",
}
PRIORITY_HEADING = (r"^\W*(?:\d{1,2}[.)]\s*)?(?:" + "|".join(f"(?P<{lvl}>{alts})" for alts, lvl
                    in PRIORITY_HEADING_LEVELS.items()) + r")\W*(?:\([^)]{0,30}\))?\W*$")  # the group named is the level
SEVERITY_LABELS: tuple[str, ...] = (
    r"(?:severity|risk|rating|priority|risk level|risk rating|exposure)\s*(?:level|rating)?\s*[:=-]\s*\**\s*(?P<level>critical|high|medium|moderate|low|severe)",
    r"\(\s*(?P<level>critical|high|medium|moderate|low|severe)(?: risk| severity| priority)?\s*\)",
    r"^\W*(?P<level>critical|high|medium|moderate|low|severe)(?: risk| severity| priority)?\s*(?:[:.\u2014|-]|$)",
    r"(?P<level>critical|high|medium|moderate|low|severe)[- ](?:risk|severity|priority|exposure)",
    r"(?<![\p{L}])sev(?:erity)?\.?\s*[:=-]?\s*(?P<level>crit|hi|med|lo)(?![\p{L}])",  # a note's "sev hi", "sev: med"
)

# A verdict in general words: the memo says that what the sentence names is legally wrong without
# using the key's problem phrases ("Derek's exception isn't valid", "that's backwards", "none of that
# works"). Credits a finding only in a sentence that names that finding's subject and no other
# finding's problem (SPEC section 3, "Verdicts in general words"); negated, conditional, hedged or
# reported verdicts do not count.
VERDICT: tuple[str, ...] = (
    r"unlawful(?:ly)?", r"illegal(?:ly)?", r"invalid(?:ly)?", r"void", r"voidable", r"unenforceable",
    r"non-?complian(?:t|ce)", r"violat(?:es|ed|ing|ions?)", r"in breach", r"breach(?:es|ed)",
    r"(?:is|are|was|were) (?:expressly |plainly )?(?:prohibited|forbidden|barred)", r"impermissibl[ey]",
    r"improper(?:ly)?", r"unauthori[sz]ed", r"unlicen[cs]ed", r"ultra vires", r"defective", r"deficient",
    r"inadequate", r"insufficient", r"fails?", r"failed", r"wrong(?:ly)?", r"backwards?", r"mistaken",
    r"incorrect(?:ly)?", r"flawed", r"fatal", r"problematic", r"red flags?", r"over the line", r"a mess",
    r"(?:is|'s|are|'re|was|were|creates?|raises?) (?:a|an|the) (?:(?!(?:much|far|smaller|small|minor|little|lesser|"
    r"manageable|separate|different|other|secondary|side|remote|theoretical)\b)[\p{L}-]+ ){0,2}(?:problem|issue)s?",
    r"(?:a|the) (?:real |big |serious |major |genuine |bigger |live )?problem", r"(?:the )?worst case",
    r"(?:is|'s|are|'re) (?:basically |effectively |now |probably )?(?:dead|ugly|bad)",
    r"(?:(?:is|are|was|were|'s|'re) (?:not|never)|(?:is|are|was|were)n'?t|won'?t be|will not be|can'?t be|cannot be) "
    r"(?:valid|enforceable|lawful|legal|compliant|permitted|allowed|effective|enough|sufficient|adequate|available|"
    r"exempt|independent|disinterested|proper|timely|correct)",
    r"(?:won'?t|will not|wouldn'?t|would not|doesn'?t|does not|don'?t|do not|can'?t|cannot|didn'?t|did not) "
    r"(?:hold(?: up)?(?=\s*(?:[.,;:!?)]|$|(?:in|under|against|on|if|as|at|for|because|since|and|but|anyway|water)\b))|"
    r"work|survive|stand up|satisfy|comply|qualify|cure|suffice|meet(?! with)|fly|carry it|save (?:it|them|us|you))",
    # a chat's verdicts: it will not survive, it cannot be used
    r"(?:not|n'?t) (?:gonna|going to) (?:fly|work|hold up|survive|stand up|cut it|pass muster)",
    r"(?:won'?t|will not|wouldn'?t|would not|doesn'?t|does not|don'?t|do not|can'?t|cannot|didn'?t|did not) "
    r"(?:cut it|pass muster)", r"dead on arrival", r"(?:a |an )?non-?starters?", r"unusable", r"unworkable",
    r"sinks? (?:it|them|this|that|the)", r"(?:is|'s|are|'re) a (?:[\p{L}-]+ )?(?:loss|loser)", r"meaningless",
    r"(?:is|'s|are|'re|was|were) (?:already |now |badly )?(?:late|overdue|untimely)", r"in (?:real |serious |big )?trouble",
    r"(?:is|'s|are|'re) (?:\S+ )?short", r"(?:falls?|fell|comes?|came) (?:\S+ )?short", r"short by", r"(?:never|not) ok(?:ay)?",
    r"more than (?:\S+ ){0,3}(?:allows?|permits?|allowed|permitted)",
    r"what (?:\S+ ){0,4}(?:forbids|prohibits|bars|outlaws)", r"(?:has|have|needs?) to go(?=\s*(?:[.,;:!?)]|$|back\b|away\b|now\b|too\b|as well\b))",
    r"none of (?:that|this|it|those|these) (?:works|holds|is valid|is enough|survives)",
    r"too (?:late|short|low|broad|narrow|vague|early)", r"falls? short", r"short of",
    r"(?:below|under) the (?:\S+ )?(?:floor|threshold|minimum)",
    r"(?:must|has to|have to|needs? to) be (?:corrected|fixed|redone|withdrawn|amended|rescinded|struck|"
    r"stricken|removed|re-?filed|re-?briefed|unwound|reversed|cured|re-?done)",
    r"needs? (?:amending|fixing|correcting|redoing|unwinding|re-?filing)",
    r"outside (?:his|her|its|their|the|our|your) (?:\S+ )?(?:authority|power|mandate)", r"inoperative",
    r"(?:is|'s|are|'re) (?:no longer |not )operative", r"(?:is|'s|are|'re) no good",
    r"(?:won'?t|will not|doesn'?t|does not|don'?t|do not|can'?t|cannot) help",
    # plain words for the same thing: a permission missing, a statement untrue, a warning sign
    r"without (?:the |a |an |any )?(?:\S+ ){0,2}(?:permission|approval|licen[cs]e|authori[sz]ation|consent)s?",
    r"untrue", r"false(?!\s+(?:positive|negative|hit|match|alarm))(?:ly)?", r"inaccurate(?:ly)?", r"misleading",
    r"(?:a |the )?(?:classic |clear |obvious )?warning signs?", r"(?:the )?wrong call",
    # a corrective the subject cannot do without: who must come off, what must be undone, what is owed
    r"(?:should|must|needs? to|has to|have to|ought to) (?:now |immediately |promptly |also )?(?:come|step|stand) "
    r"(?:off|down|aside)",
    r"(?:should|must|needs? to|has to|have to|ought to) (?:now |immediately |promptly |also )?be (?:removed|replaced|"
    r"recused|reconstituted|refunded|repaid|reimbursed|reclassified|halted|suspended|stopped)",
    r"(?:cannot|can'?t|should not|shouldn'?t|must not|may not) (?:stay|remain|sit|serve|continue) (?:on|as|in)",
    # a briefing in plain English: a permission nobody sought, rules broken, an offence
    r"(?:have|has|had) (?:already |probably |likely |possibly )?(?:broken|broke|breached) (?:the |these |those |its |our )?(?:rules?|law|laws)",
    r"breaks? (?:the |these |those )?(?:rules?|law)", r"against the (?:rules?|law)",
    r"(?:an? |the )(?:separate |criminal |federal |serious |further )?offen[cs]es?",
    r"(?:nobody|no one|no-one) (?:has |had |ever )?(?:asked|applied) for (?:it|one|them|permission|an? licen[cs]e|an? permit)",
    r"(?:is|'s|are|'re|was|were) (?:not|n't) right",
    r"expos(?:e|es|ed|ing) (?:\S+ ){0,5}to (?:claims?|suits?|lawsuits?|liability|penalt\S*|fines?|damages|prosecution)",
    r"unlikely to (?:hold|stand|survive|be enforced|be upheld)",
    r"lacks? (?:the |a |an |any )?(?:\S+ ){0,2}(?:insurance|coverage|permit|licen[cs]e|approval|authority|consent|power)",
    r"(?:is|are|'re|was|were) (?:still |now )?owed",
    # a blocking verdict: the shipment, the filing, the launch cannot go ahead as planned
    r"(?:cannot|can'?t|must not|should not|shouldn'?t) (?:go|ship|close|launch|proceed|be shipped|be released|go ahead|"
    r"go out|go forward)(?! wrong| further| into| to (?:the|a|an)\b)",
    r"off-contract", r"(?:is|'s|are|'re) not (?:a |an )?(?:\S+ )?defen[cs]es?", r"(?:is|are) no (?:\S+ )?defen[cs]es?",
    r"needs? (?:a |an |the |their |its )?(?:licen[cs]es?|notices?|letters?)(?= (?:now|too|as well|first|before)|\s*[.,;:!)]|$)",
    # a note's bare verdict, its copula left out: "worse.", "ugly", "doc demands also bad.", "ASMs look bad on
    # duties", "worse: <what follows>", "bigger prob: ...", "protocol breach" (never "bad faith", "worse than")
    r"(?<!(?:could|might|would|can|may)(?: have)? (?:be|get|been|got) )"  # "it could be worse" clears
    r"(?:(?:even|much|far|way|also|all|pretty|really|very|looks?|getting|gets) )?(?:worse|ugly|bad)"
    r"(?=\s*(?:[.:;!\n]|$)|\s+(?:on|for (?:us|them|the company|the client)|too|still|here)(?![\p{L}]))",
    r"(?:big|bigger|biggest) (?:prob|problem|issue|worry|thing|one)s?(?=\s*(?:[.:;!\n]|$)|\s+(?:is|here)(?![\p{L}]))",
    r"(?:flat|clear|obvious|plain|outright|straight|protocol|policy) breach",
    # spoken verdicts: "is very hard to defend", "you just can't do either", "goes well past what the statute lets"
    r"(?:very |really |extremely |pretty )?hard to (?:defend|justify|sustain)", r"indefensible", r"unjustifiable",
    r"(?:you|they|we|the company|he|she) (?:just |simply )?(?:can'?t|cannot) do (?:that|this|either|both|it)(?![\p{L}])",
    r"(?:goes|go|went|going) (?:well |far |way )?(?:past|beyond) (?:\S+ ){0,8}?(?:allows?|permits?|lets|authori[sz]es)",
)

# A yes/no answer opening the sentence right after a question ("### Is the X lawful?" then
# "Answer: No."; "Is 6/16 notice enough? No. (Critical.)"). Which answer finds a problem depends
# on what the question asks: whether something is in order (QUESTION_IN_ORDER, or a question
# opening with "can"/"may": "No" finds it) or whether something is wrong (QUESTION_WRONG: "Yes"
# finds it). A question of neither kind or of both ("Does this affect the 8-K?"), or with a
# negation, finds nothing from its answer (SPEC section 3, "Answered questions").
ANSWER = (r"\W*(?:(?:short |brief |quick |the )?answer|a\d{0,2}|response|conclusion|verdict|bottom line)?"
          r"[\s*:.\u2014-]{0,4}(?P<answer>no|yes)(?=\s*(?:[.,;:!)(*\u2014-]|$))")
# The answer cell of a yes/no grid (`| Question | Y/N | Why |`) or a questionnaire: a "Y" or "N" (or "Yes", "No"),
# nothing but punctuation or a clause after it ("N - 48 hours is too short", "Yes. File 0317 is cleared.").
ANSWER_CELL = r"[\W_]*(?P<answer>yes|no|y|n)(?=[\W_]*$|[\s*]*[-\u2013\u2014:;,.(!)])"
# A verdict table's verdict cell (`| # | Question checked | Verdict | Why |`): a word that answers the row's
# question one way or the other ("PROBLEM", "Fine", "True", "Breach"), alone or before its reasons. An open verdict
# ("UNCLEAR", "Needs facts") answers nothing: the row's question stays open. With ANSWER_CELL, STATUS_PASS and
# STATUS_FAIL it is what answers a table row's question at once.
VERDICT_CELL = (r"[\W_]*(?:problem|issue|risk|fine|true|false|violation|breach|partly|in part)"
                r"(?=[\W_]*$|[\s*]*[-\u2013\u2014:;,.(!)])")
QUESTION_IN_ORDER: tuple[str, ...] = (
    r"lawful(?:ly)?", r"legal(?:ly)?", r"valid(?:ly)?", r"enforceable", r"compliant", r"compl(?:y|ies)", r"permitted",
    r"permissible", r"allowed", r"correct(?:ly)?", r"accurate(?:ly)?", r"right", r"sound", r"adequate(?:ly)?",
    r"sufficient(?:ly)?", r"enough", r"proper(?:ly)?", r"followed", r"meets?", r"satisf(?:y|ies|ied)",
    r"qualif(?:y|ies|ied)", r"exempt", r"effective(?:ly)?", r"timely", r"consistent", r"reasonable", r"authori[sz]ed",
    r"(?:have|has|had) (?:the )?(?:authority|power|right)", r"works?", r"hold(?: up)?", r"survive", r"bind",
    r"protect(?:ed|s)?", r"cover(?:ed|s)?", r"in order", r"on track", r"safe", r"fine", r"ok(?:ay)?", r"go ahead",
    r"proceed", r"complete[ds]?", r"approved", r"obtained", r"cleared", r"screened", r"considered", r"addressed",
    r"received", r"on time",
)
QUESTION_WRONG: tuple[str, ...] = (
    r"unlawful(?:ly)?", r"illegal(?:ly)?", r"invalid", r"void", r"unenforceable", r"violat\S*", r"breach\S*",
    r"infring\S*", r"liab\S*", r"risks?", r"exposure", r"problem\S*", r"issues?", r"concerns?", r"defect\S*",
    r"deficien\S*", r"requir\S*", r"needs?", r"must", r"owe[ds]?", r"trigger\S*", r"appl(?:y|ies)", r"penalt\S*",
    r"red flags?", r"wrong(?:ly)?", r"mistaken", r"improper(?:ly)?", r"late", r"retaliat\S*", r"discriminat\S*",
    r"misclassif\S*", r"unauthori[sz]ed", r"unlicen[cs]ed", r"worry", r"worried",
)
QUESTION_MODAL = r"\W*(?:q\d{1,2}\W+|\d{1,2}[.):]\s*)?(?:can|may|could)(?![\p{L}])"
