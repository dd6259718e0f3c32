"""Corporate governance pocket (``corporate-governance``) of legal-agent-eval.

The block between the ``lae freeze stamp`` markers below is written by
``lae freeze --pocket corporate-governance`` and checked by ``lae verify``: it records the root
digest and the SHA-256 of every file this pocket's scores depend on. Do not edit it
by hand; nothing outside it is ever touched by freeze.
"""

# >>> lae freeze stamp >>>
# Written by `lae freeze`, checked by `lae verify`: do not edit by hand.
# generator: lae.freeze 0.1.0
# status: FROZEN
# pocket: corporate-governance
# command: lae freeze --pocket corporate-governance
# environment-module: corporate_governance
# environment-module-sha256: a11820472afc26e9747ae129593f5922418183c8d32b2dfc5fa1e637bb25c7ac
# manifest-version: 2
# root-sha256: 6d638d23e1b8fb6087ce9bb37cee51593e7882e75c9ca22325a6cb60694df908
# grader-contract: 2
# python: CPython 3.11
# package: defusedxml 0.7.1
# package: lxml 6.1.3
# package: openpyxl 3.1.5
# package: pyahocorasick 2.3.1
# package: pypdf 7.1.1
# package: python-docx 1.2.0
# package: regex 2026.11.19
# module: db6a92e9c603d42d9aa72ba4ca6ed5c0642e72df412d657f4f7e54edfcb87443 lae
# module: 1797bc6544429430e152aa43ebbebcd71a1c47c9fe5ebe625e1cf1434e84dbe6 lae.canonical
# module: d9207169b3768e3dd032ea28ac4847f03414f9fd9282c62d5ee86178dbafc933 lae.catalog
# module: e26c8510d5a939ef65c0cfe6f67252c1fc1b7180734a9d250fca99f4146e4a8a lae.compiler
# module: 13df36dc10dc198520b86982bf7d2caca6ad3035b17000a7b54533fd652897c1 lae.compiler.keys
# module: 32235bfb44108c82d5029dc4bacee8ccda90f32462330da55978f94e2b3ff924 lae.compiler.load
# module: 3eaa25dd45290db6ccb337aa663fc2db142159e7aa4e1cdc4c3360af28540ce5 lae.compiler.semantics
# module: 0514f13ce31e13eff7c833b5a2dd7c2d879893b4c3b6cb63b60d091229976daf lae.errors
# module: c247d86bd18409e967a1f16e359146d0bd84953360ad37748736b303cb079750 lae.freeze
# module: 54eb21f29eaab3638d520c32cc76c6389e13f5f08571e02f4a9fe6fe8795b17b lae.freeze._fs
# module: 9169563a0601803adc43d3f5349a94bdb076a8985f769dc92872337427c67af8 lae.freeze.freezer
# module: f17f17a6435f385563691fa629820e126070ced54a2815035d3112a449508dd8 lae.freeze.gate
# module: 23cb7e16f271bc2aa3a9d03451979144f3cb0f8b25152884acb3b44fa1547323 lae.freeze.identity
# module: 1fd73e91c89523eeed7fe5ecb34b9f460f0edcbf7d819e9299ad201b39790c66 lae.freeze.manifest
# module: c12321170d7bad2a4a60a90819b6e70a54a5be31347666024b760212af8616df lae.freeze.stamp
# module: f5d7b07560e982817a4476e026e115283371c6d31fa217a1e020d2abce2c9772 lae.freeze.verify
# module: d58bda5b8262b34859e355b358ee374d9e652d1d8a9501709c78560d3e374a93 lae.fsio
# module: 8e4f0198bb4c7c22ab8c6381e0bb3a7e6324af6bf05ae5b3c2e37f666533ac58 lae.grader
# module: ac3078b9a2328e60d16c668f2765580ebbfc647b387e37ca9610440afcda732b lae.grader._ooxml
# module: 7d941686a809ca623411218a57132c6958bd0a263d7f723a3128fab9bf6d9d22 lae.grader._zipguard
# module: 889212a8660564b257e204c56ceb54c877e63f9213079493e783c59f3eaa7ff7 lae.grader.anchors
# module: 2a6938d55fae5b1f0021f29c454baad4f7c3b9e9de8102cd9df08d653ff12b19 lae.grader.deliverables
# module: 44877b0affcf452a508f7e5dfebba6bfc3de89d942a5e1ddcdf9aac658d00460 lae.grader.documents
# module: b4fef51ee4cc6c849e579c998535d8cdf242eaef9bc7d3fd5b05d45604bf54c1 lae.grader.results
# module: faed1e774672b61287e37ea4f5a9b936b4b679574588c89849762a7daaf51f09 lae.grader.score
# module: 8a1b371e57e6eb8a6d73b0686ad32c28b122923620b17ee3cbb89db6a156b9cc lae.jsonio
# module: 51e760b0f311b3970347de90fae443937622c6b1472c9a2e80ed102044e7c5d1 lae.match
# module: 334c6e19a04fb10239d7b7aff2310a44194117c6925d725048f9add1b3453636 lae.match._assertion_weights
# module: 2d92b14d585f5438668442e2a9f158d40bd73126d974701e7ae29bf02f613b56 lae.match.assertion
# module: caa204a0ba0666ecbe198a1f882e96d2208b55f9bcef4510de6743a56c9a2d7f lae.match.cues
# module: ef2464b4f2e638656d285baaa08aa64815cdf114dddddc17286e4b1d93a2be3f lae.match.engine
# module: 28edbb235987ec46d2566f75d1be3ef73a1fe8888b25be9a6698b21b390da5f4 lae.match.evidence
# module: 8275949edc972a11e3c5802fffcc4cfe3f2cb99711be0e5912787cef8f6180c4 lae.match.literals
# module: 4cff99f1da4cb5634f9d64831a7a1775665540447821394610873857a95735b9 lae.match.masking
# module: 1780c6c8dd59715f77849d627de787b2c30486bdef7bec90b9ce0e2c42ed006b lae.match.normalize
# module: 0ee9ecc2ba74878576eea6beab64bb2105465fc0b653a9dafe21c336b9a05d5d lae.match.phrases
# module: 0bdba2670888376aef6734a0fbcc89107db2918e716549d631a832be9eea347d lae.match.polarity
# module: 73868005ec04764d45a3012e0d5fd6ccdde8b02da09c4758f12c9f30eb7f9357 lae.match.prefilter
# module: 6523bd2d05d9287eaa55db57284f8754f68e9b1497d018ed5b787016c005a737 lae.match.segment
# module: 20232e289c3d7bfae18b6f1713f7687fa4a66606b4a5870806339c18b0d31d29 lae.match.spec
# module: ce274730374067558b6c8bde744f1e0a795ba4762ff48c6492a3334318b38e1e lae.match.terms
# module: 170ad8f8ebf82f31e4f4a065ce371a3314903fcd04e41684c08a48101b5603c5 lae.project
# module: 6d4c7a1c50e7515d8ad4b8870c8eb8dbbe489311e4bc5be8875f4f139e4aed7b lae.rubric
# check: sha256sum -c anchors/corporate-governance/SHA256SUMS  (from the project root)
# fidelity: {"labelled_findings":9100,"max_over_credit":0.02,"max_under_credit":0.1,"memos":1300,"met":true,"over_credit":0.01306,"under_credit":0.098442,"validation_sha256":"6499369c85ed247547c1a3b23c9d484d9377fcd63fb6b397a50e05f0fcde3554"}
# fidelity-summary: measured at 1.3% over-credit and 9.8% under-credit on 1300 labelled memos (9100 labelled findings); thresholds 2.0% / 10.0%: met
# scoring: evergreen-controller-002 {"deliverable_weight":0.4,"false_flag_weight":0,"finding_weight":0.6,"mask_min_tokens":8,"min_deliverable_chars":200,"must_not_say_weight":0}
# scoring: northstar-stockholder-001 {"deliverable_weight":0.4,"false_flag_weight":0,"finding_weight":0.6,"mask_min_tokens":8,"min_deliverable_chars":200,"must_not_say_weight":0}
# scoring: pioneer-resignation-003 {"deliverable_weight":0.4,"false_flag_weight":0,"finding_weight":0.6,"mask_min_tokens":8,"min_deliverable_chars":200,"must_not_say_weight":0}
# scoring: ridgeway-books-004 {"deliverable_weight":0.4,"false_flag_weight":0,"finding_weight":0.6,"mask_min_tokens":8,"min_deliverable_chars":200,"must_not_say_weight":0}
# scoring: solstice-committee-005 {"deliverable_weight":0.4,"false_flag_weight":0,"finding_weight":0.6,"mask_min_tokens":8,"min_deliverable_chars":200,"must_not_say_weight":0}
# files: 55
# db5e20ae47e802e8df3429c1cbfe2a329e30c0260df356b39e6989878ae9e8d1  anchors/corporate-governance/evergreen-controller-002.anchors.json
# 6d4cd115ca89f005476d5d740a7d0722da78bbec4df0dbf31b9917a3d61048be  anchors/corporate-governance/northstar-stockholder-001.anchors.json
# a88b5a8c56c2f3e97cc35c948dd0c1f96655395ea11db8d82835c0d252789038  anchors/corporate-governance/pioneer-resignation-003.anchors.json
# 642b3f720d7ed93d379e86892410232de3888925cb6e2e042c0297326ce0d45b  anchors/corporate-governance/ridgeway-books-004.anchors.json
# a672325d98914e603bd9ffb7ef8898b001bf140ae2612b743da0b0ff7312f005  anchors/corporate-governance/solstice-committee-005.anchors.json
# 74f2b2422a087bf15bc7b70f23b129866711de2fa485d1e5b18fefac27751c81  tasks/corporate-governance/evergreen-controller-002/documents/01-compliance-reference-controller-transactions.docx
# 91a123263c667fab5affc9a17d5ba8fce556949e04730b1508bdfce676a2b5e9  tasks/corporate-governance/evergreen-controller-002/documents/02-cascadia-proposal-letter.pdf
# 4a40434596af690a1e955f9e8d82a538a5f6fb74a55962fc582755decd0ca209  tasks/corporate-governance/evergreen-controller-002/documents/03-board-resolutions-committee-formation.pdf
# 1deb525813498661d428f0af0670b1d9af9cb6535843d0fc461cbc91033c6e5a  tasks/corporate-governance/evergreen-controller-002/documents/04-special-committee-minutes.docx
# dddb2beb9d9f621896c05db4deea16fbcb46807f4ec8ea73a8f615aa4898e510  tasks/corporate-governance/evergreen-controller-002/documents/05-draft-merger-agreement.docx
# 39577f8fbba7ed203392966a1847ef00b7afd8057379588e1cfab6f061d0bac9  tasks/corporate-governance/evergreen-controller-002/documents/06-process-diligence-workbook.xlsx
# cb0370f7cab7a07af4b8f44a05e681120852bf5afcdd0a32b57736ab49722d1b  tasks/corporate-governance/evergreen-controller-002/documents/07-cascadia-counsel-email.eml
# 8427b3d525aa92e31ffdbb81c91095131c95f28d816160461b23e4fc77490c8c  tasks/corporate-governance/evergreen-controller-002/documents/08-management-chat-export.txt
# 9c5cab0ddf75306f6adf7998d6512bd081e4102c454ec9005db6fab9be627bc5  tasks/corporate-governance/evergreen-controller-002/documents/09-halberd-relationship-disclosure.eml
# 3949c9ccbe019fff06d7791b6dbe922701c63dd61479799720505b75b0d8ea2f  tasks/corporate-governance/evergreen-controller-002/task.json
# 8db761179e7c478b385fe64e6f1d05222aef6b5dacf19bc172aa961e37631514  tasks/corporate-governance/northstar-stockholder-001/documents/01-governance-compliance-reference.pdf
# ed23a1587f070ccd5d6fc84b7def68225a2d21f56c4210f561dbdd8540693c01  tasks/corporate-governance/northstar-stockholder-001/documents/02-halvorsen-stockholders-agreement-2021.docx
# 3807c091c8e82ab886ce40ccbf9a791e5df9744bd2c8ad3b8cfc19e6e7a0fa27  tasks/corporate-governance/northstar-stockholder-001/documents/03-corvid-investor-rights-agreement-draft.docx
# 8c0a38eb02116907459678934aa6ef7eb7061eea91ba3b3fbda15441fe9cde8e  tasks/corporate-governance/northstar-stockholder-001/documents/04-governing-instruments-extract.pdf
# 27ed7c4ac951b6b7e7301e274f58096d9848e74fae356fe319b415ef1383f803  tasks/corporate-governance/northstar-stockholder-001/documents/05-corvid-logistics-data-services-agreement.docx
# 1221a42706ae58f20d6114de682be300b17251fa2f8f05305136d4c243797ca1  tasks/corporate-governance/northstar-stockholder-001/documents/06-ownership-and-consent-tracker.xlsx
# 6a077dec4f167d4479243600806426dfd84c0918b65a290e04b352f3c27ed735  tasks/corporate-governance/northstar-stockholder-001/documents/07-board-minutes-march-april-2025.docx
# da86c79eec9ea87df335fd5f4775e9188153e4fa261d45465e577c48f915501a  tasks/corporate-governance/northstar-stockholder-001/documents/08-gc-email-harrow-and-side-letter.eml
# 1e260b0fbc63dbca221cff3acd4028dc030f040988679651bdcd22b97399da5c  tasks/corporate-governance/northstar-stockholder-001/documents/09-polaris-legal-chat-export.txt
# 9091f3758cba996f4f245ba4b8b6f6b51ce4108c7318ac35d5913be59a39e308  tasks/corporate-governance/northstar-stockholder-001/task.json
# e848d120ef5805ace6f76d79fee73a71d98a125f4b8dacaa5edcd775383570b0  tasks/corporate-governance/pioneer-resignation-003/documents/01-compliance-reference-director-departures.pdf
# 58bfedd099bf432a7c5999ac802ff84f70f495c1b25dac530cde62b5f99c2f1e  tasks/corporate-governance/pioneer-resignation-003/documents/02-okafor-resignation-email.eml
# 46fe7213c3bfa1dc4461c3b1a332c93e182fc9fc6a341df7d29f2b2dc4b1f7e8  tasks/corporate-governance/pioneer-resignation-003/documents/03-board-minutes-september-2025.docx
# 30bcb0c206d099e14f1066b8544a65519a6cc762b1011081f9c9c51c380fa05b  tasks/corporate-governance/pioneer-resignation-003/documents/04-draft-form-8-k-and-cover-note.docx
# 7bfec034afc19cfc70b50d8136f4737ade1113f01ef9e80ddad77c4febe1f6d4  tasks/corporate-governance/pioneer-resignation-003/documents/05-director-transition-letter-draft.docx
# 8568f1c1122e033aefd7936ff101ce1e7622c4ff9a5747129c47cb046704dbde  tasks/corporate-governance/pioneer-resignation-003/documents/06-governance-tracker.xlsx
# 1abc27165d593e8058c4fafef9f2da6759129525363f7c4f80e826faf3990480  tasks/corporate-governance/pioneer-resignation-003/documents/07-legal-ir-chat-export.txt
# c4b73e3df28a2c29dcca13fc7634b0992360e1e570ebd78b3961734b11314f84  tasks/corporate-governance/pioneer-resignation-003/documents/08-bylaws-and-charter-excerpts.pdf
# 3ae16fb637665e7457fc5a156092ca9a4ce63a6431bd27c61b186683a4468c1e  tasks/corporate-governance/pioneer-resignation-003/documents/09-okafor-counsel-letter.docx
# 301423bbc8d1ccd45deacff59a4410fdcf222644bc9cf30b8a72287888099d06  tasks/corporate-governance/pioneer-resignation-003/task.json
# 1dca6b98a5840ded6caf50935802cd803942cada95094a79ddeef5f2901d791f  tasks/corporate-governance/ridgeway-books-004/documents/01-compliance-reference-section-220.docx
# 782af422073f82aee61a617fe7919e0c0b7d99c4aa456088c8308ceca7e47545  tasks/corporate-governance/ridgeway-books-004/documents/02-carrow-point-demand-letter.pdf
# 1bd71713f00456afeaca6cb62221f6e014f81bcf24477b30feaf12e1b3f67c66  tasks/corporate-governance/ridgeway-books-004/documents/03-tamsin-membership-interest-purchase-agreement.pdf
# 77a6a0a7813ddac358cce477b327dec168c7ce48c257aadc676463dd5f8cebd7  tasks/corporate-governance/ridgeway-books-004/documents/04-board-and-audit-committee-records.docx
# e18c84775d4cb6f8d02dcaa416714952f46a26ce9728d153740bd05f23c4d522  tasks/corporate-governance/ridgeway-books-004/documents/05-records-inventory-and-questionnaires.xlsx
# 8e3677ab5ce3d73889bd1ec11b8cab661e1ca0a4f46beffb54a2d0178b654d17  tasks/corporate-governance/ridgeway-books-004/documents/06-gc-response-plan-email.eml
# cb33d2fbe7b9bc5e18d2d117028fd6049aa37219f3b6160e99296d84517554f9  tasks/corporate-governance/ridgeway-books-004/documents/07-draft-confidentiality-agreement.docx
# fe23bbfa99861359704fcdb62bf0041dd47a0170aaf369710b57c02d6be18ffa  tasks/corporate-governance/ridgeway-books-004/documents/08-exec-team-chat-export.txt
# 45e6b91687046959c569e58938f6e3f02fe0320605cc8f812946a37b51667330  tasks/corporate-governance/ridgeway-books-004/documents/09-governance-policies-excerpt.pdf
# 26c52f03078607cf8b73a536b6f679b4f06e661c3382c10329169821585a0feb  tasks/corporate-governance/ridgeway-books-004/task.json
# c3c429a04e6c865ec9459ebcf2a44bea161f4d9349729ee3e087bd02a6d2bf66  tasks/corporate-governance/solstice-committee-005/documents/01-compliance-reference-controller-transactions.docx
# 1434e99f7b8c398273e4045e5136bf7cfc0c0d2c739649e625330f50fb4c086e  tasks/corporate-governance/solstice-committee-005/documents/02-stockholders-agreement-2021.pdf
# 53abd00573749b9f0c18b2eb62a5109ef43f949b47ee7d0df5b1ea64f9e23d9b  tasks/corporate-governance/solstice-committee-005/documents/03-board-minutes-2025-05-06.docx
# f9253608421ada5daed49cd8cdb274e1a56921c3cd01382e54c1386b3ae23ea7  tasks/corporate-governance/solstice-committee-005/documents/04-special-committee-minutes.docx
# e8ee373d0dc6db8890dda7e25c9c156186cda1060a460f8d56d253174a78d8e2  tasks/corporate-governance/solstice-committee-005/documents/05-larchmont-engagement-letter.pdf
# 9bc3339f59ae61310f756f303ba555ffcc2f94668e7ae61d96e7d2680cc5036e  tasks/corporate-governance/solstice-committee-005/documents/06-draft-merger-agreement.docx
# dd50d70f79986d41529e4815eae3b29e85f7296557e5fe5150a48b20f8736c4a  tasks/corporate-governance/solstice-committee-005/documents/07-governance-and-projections-schedule.xlsx
# 2d5a0a55710a242a1d804762ad547043becceb5171916649374b14f12709655c  tasks/corporate-governance/solstice-committee-005/documents/08-arden-email-2025-06-18.eml
# 9ca066b8dd33c536c0dd254256fb058b05bbea0b011c247e482366f6ea9a744c  tasks/corporate-governance/solstice-committee-005/documents/09-management-chat-export.txt
# 4de785dfc9150b5b41617cdc436b25dfd4b8f68f231a2551e869c59fd9cdcec8  tasks/corporate-governance/solstice-committee-005/task.json
# <<< lae freeze stamp <<<

from lae.env.environment import pocket_entry_point

POCKET = "corporate-governance"
load_environment = pocket_entry_point(POCKET)

__all__ = ["POCKET", "load_environment"]
