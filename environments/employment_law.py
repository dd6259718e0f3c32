"""Employment law pocket (``employment-law``) of legal-agent-eval.

The block between the ``lae freeze stamp`` markers below is written by
``lae freeze --pocket employment-law`` and checked by ``lae verify``: it records the root
digest and the SHA-256 of every file this pocket's scores depend on. Do not edit it
by hand; nothing outside it is ever touched by freeze.
"""

# >>> lae freeze stamp >>>
# Written by `lae freeze`, checked by `lae verify`: do not edit by hand.
# generator: lae.freeze 0.1.0
# status: FROZEN
# pocket: employment-law
# command: lae freeze --pocket employment-law
# environment-module: employment_law
# environment-module-sha256: 44862f9cbabe4272ce00de312ad15d700c13def79da4a30bfdeb7ef35fe7ca69
# manifest-version: 2
# root-sha256: e578c268c59f58a24d0fcb7d0af222e6b47617ef7d2251c0d91a6141809a02be
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
# check: sha256sum -c anchors/employment-law/SHA256SUMS  (from the project root)
# fidelity: {"labelled_findings":9100,"max_over_credit":0.02,"max_under_credit":0.1,"memos":1300,"met":true,"over_credit":0.017398,"under_credit":0.079483,"validation_sha256":"b7c4f59fdb96a07d00ed4d8d24c2e7ea3fab266cfcf01ae62058d6b045a6405e"}
# fidelity-summary: measured at 1.7% over-credit and 7.9% under-credit on 1300 labelled memos (9100 labelled findings); thresholds 2.0% / 10.0%: met
# scoring: atlas-noncompete-001 {"deliverable_weight":0.4,"false_flag_weight":0.1,"finding_weight":0.6,"mask_min_tokens":8,"min_deliverable_chars":200,"must_not_say_weight":0.1}
# scoring: brightline-overtime-002 {"deliverable_weight":0.4,"false_flag_weight":0.1,"finding_weight":0.6,"mask_min_tokens":8,"min_deliverable_chars":200,"must_not_say_weight":0.1}
# scoring: cobalt-pwfa-003 {"deliverable_weight":0.4,"false_flag_weight":0.1,"finding_weight":0.6,"mask_min_tokens":8,"min_deliverable_chars":200,"must_not_say_weight":0.1}
# scoring: delta-warn-004 {"deliverable_weight":0.4,"false_flag_weight":0.1,"finding_weight":0.6,"mask_min_tokens":8,"min_deliverable_chars":200,"must_not_say_weight":0.1}
# scoring: ember-contractor-005 {"deliverable_weight":0.4,"false_flag_weight":0.1,"finding_weight":0.6,"mask_min_tokens":8,"min_deliverable_chars":200,"must_not_say_weight":0.1}
# files: 55
# 18c9a81b0719d498750734039e2dc0bf7aaad5226eb96a89af43e577a6742fb5  anchors/employment-law/atlas-noncompete-001.anchors.json
# cb2692f743fc6ba4b312323e457714d819ddbfd1894e239a04e37ffeea6dd155  anchors/employment-law/brightline-overtime-002.anchors.json
# 08e096fdf7667b142624d5b25f4c578ea912b901a115204093405177c3c24b05  anchors/employment-law/cobalt-pwfa-003.anchors.json
# 32cf6f60b4e411b2bb1a4c705e5fdfc715f4c158dbb810b0bab1888a8cdc2397  anchors/employment-law/delta-warn-004.anchors.json
# 29db67d15a60531a9ce7faebbf75dae02990124ee5211c5f6e742aa67977a741  anchors/employment-law/ember-contractor-005.anchors.json
# 6522bd3d029a9fa8ee9c1b7986b848bfba4e50ace5cab7cc9ea6e823ce91dcae  tasks/employment-law/atlas-noncompete-001/documents/01-restrictive-covenant-agreement.docx
# 0bbd0dfaaa9d1a3786dc6b3942cdc8a3f729207e7270c1c9fb380c2c6b8180b6  tasks/employment-law/atlas-noncompete-001/documents/02-compliance-reference-restrictive-covenants.pdf
# 51dfc131d54ee0c17242771014c07bee8da5ece7162f46131d1a8eff995639f7  tasks/employment-law/atlas-noncompete-001/documents/03-rollout-population-roster.xlsx
# cc59314c0f20b71aef03d6b371b635762121a093a3b4afa6968c7ca3eb63ecb0  tasks/employment-law/atlas-noncompete-001/documents/04-compensation-committee-minutes.docx
# 69ed95b2a811aeced3eb3bc20d64cdb0e4542f1660d22d18273ca59df79bb9a4  tasks/employment-law/atlas-noncompete-001/documents/05-rollout-timeline-email.eml
# 6be0ed5c9a5fa042479445a6cfb5966f9e86e0e7a8a276825a56907727a6a301  tasks/employment-law/atlas-noncompete-001/documents/06-hr-rollout-channel-chat.txt
# 6705af38d553434fd876fcf217ffa49564b9071093bfd444b5c780fe02af1abc  tasks/employment-law/atlas-noncompete-001/documents/07-aclp-training-program-guide.pdf
# 8ef49880927ff88edd73990529c98214e8d0eec423b7a6f5f83f29c501f89a47  tasks/employment-law/atlas-noncompete-001/documents/08-lab-operations-access-email.eml
# 04115c97164aeade7e2a0b8a143fd9d10f8c56ee11be11f94c03ff0bb4b139d3  tasks/employment-law/atlas-noncompete-001/documents/09-employee-faq-draft.docx
# f8ab0668769a7e02a561fbb92930f6f36e62922f55dae65b694541bb38d5e471  tasks/employment-law/atlas-noncompete-001/task.json
# 7350f6bcde96bfb3c4543f50f06903dcfeca3cf71651b12993f76dd134b50e7d  tasks/employment-law/brightline-overtime-002/documents/01-project-summit-reclassification-proposal.docx
# 29dd798e69a9cc8c6949d32b9abc5b867a7963e3f01f2b3980d555b2b931ba71  tasks/employment-law/brightline-overtime-002/documents/02-wage-hour-compliance-reference.pdf
# 398af4a39fffd4be2023a7344e1f30c3f55ffe3484a5d69f046d09b319d91af2  tasks/employment-law/brightline-overtime-002/documents/03-asm-time-study-and-payroll-data.xlsx
# f83cf5c0eefaa1f83e01d25d40797aa08fdfde4e7d4ec386d89a4384135b15fe  tasks/employment-law/brightline-overtime-002/documents/04-asm-job-description.docx
# ca86e03e83a9c8c5a4f5aea944b9d7e4f1f96098ab8beba58c27273bb3bc0070  tasks/employment-law/brightline-overtime-002/documents/05-salaried-pay-practices-policy.pdf
# 7033d4047273c4402d4cff4cee9f820ce0415dc32e576a2216765650081cded5  tasks/employment-law/brightline-overtime-002/documents/06-district-manager-channel-chat.txt
# f61db6911cd8392b723399ae65acbac9f872937771208dca2907166c1e880af0  tasks/employment-law/brightline-overtime-002/documents/07-asm-reclassification-acknowledgment.docx
# aa5bf237114d37af895d927bb406eb50b91dd68fc056685cd42bf9265c6046e3  tasks/employment-law/brightline-overtime-002/documents/08-payroll-scorecard-bonus-email.eml
# cd3e460d13281aed1c6104a1f2aab3113bf86a6d2a9b7e40dc0289f029cfac46  tasks/employment-law/brightline-overtime-002/documents/09-general-counsel-review-request.eml
# 326d6543f22588477fa07741bf0c5a8d3cc21c26dc29a6f5c15556fc41f0c820  tasks/employment-law/brightline-overtime-002/task.json
# 5176b2ebf6817f675c5b685f5592f3be4ae540ae06749bff13e1d3789f5fcf31  tasks/employment-law/cobalt-pwfa-003/documents/01-accommodation-request-email.eml
# e2b7f227ffb1cbf240fc6d59a2583b4fa682393f7bf7b9a326f3ee5be490f784  tasks/employment-law/cobalt-pwfa-003/documents/02-pwfa-compliance-reference.pdf
# d8833b6abd12834eabdbdc536b3f4b6f6bf36eeb63cbac34ab3cfd7f7fdcc7f1  tasks/employment-law/cobalt-pwfa-003/documents/03-hr-documentation-request-letter.docx
# 30f564aa009fd1e41c2bf7b1ae4147d22c80a959861af1b2e5ec807ccea37e9d  tasks/employment-law/cobalt-pwfa-003/documents/04-accommodation-decision-letter.docx
# 2cef48d4728fa6da166c3445b631c575672a74f273c3dfba1890ccc8cfff39de  tasks/employment-law/cobalt-pwfa-003/documents/05-maple-crest-schedule-and-case-data.xlsx
# db75278df9f94e837f8a41bfc79284bee2d813afb6b8af2020431132d9fc4ff1  tasks/employment-law/cobalt-pwfa-003/documents/06-maple-crest-chat-exports.txt
# 0d6a0f4a9db7c07953df4a37180a8aba50525030e0fa920451b0e2e7fbb747d5  tasks/employment-law/cobalt-pwfa-003/documents/07-employee-handbook-excerpts.pdf
# a1a11cbd460a75e08535a65335ccf5aea4575d785769d85dece4d29efc1aa7b6  tasks/employment-law/cobalt-pwfa-003/documents/08-stna-position-description.docx
# 1d5f21560844120ca9ae0d7a344c793ca2f2cf8212f9d53528d7f82be48b9681  tasks/employment-law/cobalt-pwfa-003/documents/09-employee-follow-up-and-hr-escalation.eml
# 96b1052fbcaa5c1040b49d3a1dbe9cec92070a0c8c024db2c2e1b3df3b155447  tasks/employment-law/cobalt-pwfa-003/task.json
# 45643c8c259b5e3a9a99f9ec11f82ab65f670cd3b31afb85860df343c7b848ad  tasks/employment-law/delta-warn-004/documents/01-compliance-reference-warn.pdf
# 70b974db838c2d88e848b28b6e49b42e0a43c5e39785e9f5f3dd4a5998082987  tasks/employment-law/delta-warn-004/documents/02-board-minutes-project-keystone.docx
# 2773b6130c86a4894a3848ebbd5d15dbb9cdae035ce84140d60321a23165d2ee  tasks/employment-law/delta-warn-004/documents/03-workforce-roster.xlsx
# 3c8fc9f55c2b18b64bf7cb4b73965813bbade2dcb815f696a2510e7fe93dab1b  tasks/employment-law/delta-warn-004/documents/04-hr-rif-plan-and-warn-analysis.docx
# 9d2312b11d4279b035f3ec6f5f1a7b86d14faf92de67863cff21a40863f231dc  tasks/employment-law/delta-warn-004/documents/05-cfo-email-notice-timing.eml
# b0a9dd1d31c1bca1b58c854172236c2b303dadf9ed1d99e10f5e525a03d08bea  tasks/employment-law/delta-warn-004/documents/06-castellan-nonrenewal-notice.pdf
# b7ba219cc5f15c75d3b7c5817788c8bb354067e67e507b473b4964a6f5192116  tasks/employment-law/delta-warn-004/documents/07-separation-agreement-template.docx
# 65dece14e55d0f0055703d5e95c3ebdc5257390fc55e8044ae50d7f7e23f0142  tasks/employment-law/delta-warn-004/documents/08-keystone-hr-ops-chat.txt
# 2e41ee0bb61a0b80bd8aa94352b1d98f2b3396ff828ee52e9d90e4e4d92ce5c2  tasks/employment-law/delta-warn-004/documents/09-draft-notice-package.docx
# 2eff77e007ca33be4a66a7436030cb594fae3d988d1452e020338c8d6b0f4f9e  tasks/employment-law/delta-warn-004/task.json
# 22139e6a498835fbc4b3feeff2f0a74b9e74d4f92e30c795455d49c757bd3dd3  tasks/employment-law/ember-contractor-005/documents/01-compliance-reference-worker-classification.pdf
# b1a9558dfe45756373a70750a14cbc1cf8f2adfdacbf8a6cdb061dbc5d26f281  tasks/employment-law/ember-contractor-005/documents/02-independent-delivery-partner-agreement.docx
# 3e4c4f1c1cbe8a10cdc084d16fb0079653b58d973f7ab0e6b9af24f3224f99c5  tasks/employment-law/ember-contractor-005/documents/03-partner-settlement-register.xlsx
# 3c05012651396d344658a0834f177be3d703671ae729589a9c1b7e053bcc403d  tasks/employment-law/ember-contractor-005/documents/04-board-minutes-2025.docx
# 9bac0614053caa68a6770dc3b9dd4fb315afb5f165ef8c7bae53c420d9040369  tasks/employment-law/ember-contractor-005/documents/05-gc-email-classification-review.eml
# 4b2292ae529acfd0bf3c505866bf305cc519ed54077f7191e31e94376c933759  tasks/employment-law/ember-contractor-005/documents/06-edd-audit-closeout-report.pdf
# 3985d193b566bcef7a8ea5f2af31d3b69b586ee8161233f22c701e147191a215  tasks/employment-law/ember-contractor-005/documents/07-dispatch-ops-chat-export.txt
# b14b95dd10b3a7cb33572bcbccd4b03e1d9c14779fb3de962b1cda0e6aaf31eb  tasks/employment-law/ember-contractor-005/documents/08-delivery-standards-playbook.docx
# 2902da61e04e84d9057dbbee83420b95243de6d6c1d8e3dc58f6904bcc3f4295  tasks/employment-law/ember-contractor-005/documents/09-controller-email-warehouse-overtime-closeout.eml
# 21deeffc02f895fd2e069fb5528f85ce3d7a8ae3d46a9a44401aa2dd68214107  tasks/employment-law/ember-contractor-005/task.json
# <<< lae freeze stamp <<<

from lae.env.environment import pocket_entry_point

POCKET = "employment-law"
load_environment = pocket_entry_point(POCKET)

__all__ = ["POCKET", "load_environment"]
