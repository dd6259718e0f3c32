"""AI law and export controls pocket (``ai-law``) of legal-agent-eval.

The block between the ``lae freeze stamp`` markers below is written by
``lae freeze --pocket ai-law`` and checked by ``lae verify``: it records the root
digest and the SHA-256 of every file this pocket's scores depend on. Do not edit it
by hand; nothing outside it is ever touched by freeze.
"""

# >>> lae freeze stamp >>>
# Written by `lae freeze`, checked by `lae verify`: do not edit by hand.
# generator: lae.freeze 0.1.0
# status: FROZEN
# pocket: ai-law
# command: lae freeze --pocket ai-law
# environment-module: ai_law
# environment-module-sha256: a19f6720c7dcbc20de417a60840fcc1cffbb50f44c5baa9abfbb9cedc473ed02
# manifest-version: 2
# root-sha256: 7d5ee9d0c90d94ef5fb10dc04abba2bb32989e3a31e1f586f748167bcd1f4287
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
# check: sha256sum -c anchors/ai-law/SHA256SUMS  (from the project root)
# fidelity: {"labelled_findings":9100,"max_over_credit":0.02,"max_under_credit":0.1,"memos":1300,"met":true,"over_credit":0.019838,"under_credit":0.071025,"validation_sha256":"c5273571d246feffc25f06038c067a3a93e370034fa9727d33f171f484d7afac"}
# fidelity-summary: measured at 2.0% over-credit and 7.1% under-credit on 1300 labelled memos (9100 labelled findings); thresholds 2.0% / 10.0%: met
# scoring: ai-cloud-training-004 {"deliverable_weight":0.4,"false_flag_weight":0,"finding_weight":0.6,"mask_min_tokens":8,"min_deliverable_chars":200,"must_not_say_weight":0}
# scoring: ai-frontier-weights-002 {"deliverable_weight":0.4,"false_flag_weight":0,"finding_weight":0.6,"mask_min_tokens":8,"min_deliverable_chars":200,"must_not_say_weight":0}
# scoring: ai-gpu-reseller-003 {"deliverable_weight":0.4,"false_flag_weight":0,"finding_weight":0.6,"mask_min_tokens":8,"min_deliverable_chars":200,"must_not_say_weight":0}
# scoring: ai-model-export-005 {"deliverable_weight":0.4,"false_flag_weight":0,"finding_weight":0.6,"mask_min_tokens":8,"min_deliverable_chars":200,"must_not_say_weight":0}
# scoring: ai-orion-compute-001 {"deliverable_weight":0.4,"false_flag_weight":0,"finding_weight":0.6,"mask_min_tokens":8,"min_deliverable_chars":200,"must_not_say_weight":0}
# files: 55
# 132789712df0655645e56e64cb5ab6856c1f4faefb81b22192881ffee9977c43  anchors/ai-law/ai-cloud-training-004.anchors.json
# f2fab594dd9aa56d5d0bb3784c47261f7c27be8f017e8bf85ae4433859b647a2  anchors/ai-law/ai-frontier-weights-002.anchors.json
# 665e75ada6708b588512174bc65950525711a6dde05f550e05626aac76b3b217  anchors/ai-law/ai-gpu-reseller-003.anchors.json
# babb18cd0b6f0e5e4ce56159410fb4b2f3a223aaa34ac773b99d77d52d48912b  anchors/ai-law/ai-model-export-005.anchors.json
# 48746d19faeb1e66c3dc06a6e93ee81efed1180c259a6b5452425055dbeafe4b  anchors/ai-law/ai-orion-compute-001.anchors.json
# 6a3b1ff5f4f266141b58158bbe2f8bb06048fb26c2d38a923105f8f58e6b1b45  tasks/ai-law/ai-cloud-training-004/documents/01-compliance-reference-memo.docx
# b49507c4df25a01155fd873400169cf692d7ffb3117b254986169b4f88391fd0  tasks/ai-law/ai-cloud-training-004/documents/02-capacity-reservation-agreement.docx
# 71b6001699a753cad040c712f489c89e0f67d4942cdbe2ad4e8c7293ff4e84be  tasks/ai-law/ai-cloud-training-004/documents/03-customer-kyc-file.pdf
# 1cc63b60f6d078f0bbe2d8b593f1017f3f6805af12811d807793095bbaa321e9  tasks/ai-law/ai-cloud-training-004/documents/04-cluster-allocation-and-access.xlsx
# a27906935a28815a296fd377e497bbc179f442224dc83644fb3cd1b4a8b7b431  tasks/ai-law/ai-cloud-training-004/documents/05-deal-team-chat.txt
# 380bb9ad23280bf66bb1a4b90165aa2a300be0c0ff7fb12c33584f62d28ab0c1  tasks/ai-law/ai-cloud-training-004/documents/06-email-aurelian-cfo-group-structure.eml
# 23a5d5fd5e2b04066e2683cfcf25f23adff8c255f51fc3e2e8351965e2040b9a  tasks/ai-law/ai-cloud-training-004/documents/07-board-risk-committee-minutes.docx
# a30e50706cd5cbb1e69187e73770912a51dc312a6ae1ab795fe53c6bd371547f  tasks/ai-law/ai-cloud-training-004/documents/08-email-screening-results.eml
# c1a9434a245a8d6820c5bc95122d0af76fcd5bf71d4f1b3abdd93097d66722c7  tasks/ai-law/ai-cloud-training-004/documents/09-customer-due-diligence-standard.pdf
# 1346d75fbe9616ee1330b6a9977d121942629c4c3552fac69a4f1c432a403cc9  tasks/ai-law/ai-cloud-training-004/task.json
# 2983a68331df9e5eb4bc3b4921d58e2b70b127c92cf7dc3ee2f6077d5b7faaa6  tasks/ai-law/ai-frontier-weights-002/documents/01-enterprise-model-license-agreement.docx
# 51fd599cc180bf48e73686e93500d3879e6316f6d12955421bb0e25ef63e1319  tasks/ai-law/ai-frontier-weights-002/documents/02-technology-escrow-agreement.docx
# d2ec6a23c3bed0e34559e62a6bffd4806a082e9e7a44809f0f34ac0be01459ae  tasks/ai-law/ai-frontier-weights-002/documents/03-compliance-reference-model-weights.pdf
# c4335cca69879b37c708695e8931ee9e8acc9fbffaa3420d42b321d3798d74e9  tasks/ai-law/ai-frontier-weights-002/documents/04-escrow-custody-register.xlsx
# 47a875044555c11330833e04bd13e179d81540a416a2cc8f49642c29293da548  tasks/ai-law/ai-frontier-weights-002/documents/05-atlas-4-model-card-and-compute-accounting.pdf
# f7c4fc38cc0ff9aa4033619f05c8833d9ba80044162ca9dbc945ec3416982605  tasks/ai-law/ai-frontier-weights-002/documents/06-safety-security-committee-minutes-2025-06-05.docx
# d259a4b50b4431c642bd5e242fa154d5ab4e0acdb97497e43bed0d74f9d380d3  tasks/ai-law/ai-frontier-weights-002/documents/07-atlas-escrow-channel-export.txt
# 845acb3f97b0c9e15b6686bdfc0510fb7e5d73e2ab584e778885098883a60c55  tasks/ai-law/ai-frontier-weights-002/documents/08-email-agent-subprocessor-notice.eml
# 1655b5a9957a58e5c4826f01ae1804efa3acaf15308317555017b5872584d1b7  tasks/ai-law/ai-frontier-weights-002/documents/09-email-designated-affiliate-notice.eml
# b672f1e977ef97c3f318b5bf552fe04322e9fb49afe409ba4870739c26b6ec24  tasks/ai-law/ai-frontier-weights-002/task.json
# 3188d2dc88440e0d4d569342f89e9f716d0945b86f3fd272113c9bcf7afc1693  tasks/ai-law/ai-gpu-reseller-003/documents/01-compliance-reference-memo.docx
# bd1797aab3485ebe58461865460388d6218081f55b90c330a698c61b506390c2  tasks/ai-law/ai-gpu-reseller-003/documents/02-authorized-reseller-agreement.docx
# f7b235608c412a3e856fcecb33bed599c967a1dfb9b147d7177852536ff2db09  tasks/ai-law/ai-gpu-reseller-003/documents/03-reseller-kyc-questionnaire.pdf
# eab237b1ef9a414323fa6431538fdc77ad58f795fe4c550042b128db1666a38b  tasks/ai-law/ai-gpu-reseller-003/documents/04-channel-orders-and-screening.xlsx
# 5a04c1836583aa59ea6117aa41e6a220724a2116cafcf066594096ddf56e95a5  tasks/ai-law/ai-gpu-reseller-003/documents/05-apac-channel-chat-export.txt
# 47ef12e506c164a2b3e0650a59eafce1f14c24bea0e3bcc95d31379772194af1  tasks/ai-law/ai-gpu-reseller-003/documents/06-email-vantage-orbit-ownership.eml
# daced2183764d86b10294fad9a74d4a9e7b9addddaa6ca88e3741758ffd7bc29  tasks/ai-law/ai-gpu-reseller-003/documents/07-trade-compliance-risk-committee-minutes.docx
# 42ee932707b34afe9aa2d16faa78313b4a8fcb59508835a036c54f3885e44d45  tasks/ai-law/ai-gpu-reseller-003/documents/08-email-tanjung-site-visit.eml
# 06399d06e054de814cc4c5da2bbed1fa13799833dcf0f0d0fb1caf1537cdade1  tasks/ai-law/ai-gpu-reseller-003/documents/09-legacy-pacifica-distribution-agreement.pdf
# 81d0bf0875d1a61179032eab16fef57acb66eff7eee2a3a8e0a1611d75e1003b  tasks/ai-law/ai-gpu-reseller-003/task.json
# a45a2943ca511b5a5bce45c60410528fa87bfd5455c3061a216876ac17ab2ea0  tasks/ai-law/ai-model-export-005/documents/01-compliance-reference-memo.docx
# a83c47029038456e014c118f8f95eb07284ce20420d1c61d91824e7dda5dc657  tasks/ai-law/ai-model-export-005/documents/02-agreement-and-plan-of-merger-excerpts.docx
# ddd95bfd9b458ad43918df24cc8a9f9fdd5d528a90516a7968158e3ad5b092d1  tasks/ai-law/ai-model-export-005/documents/03-halyard-team-and-access-roster.xlsx
# 30da933819cd704148b4bd53d1d03d16466c9028b7e55f0f26be5bdb0c26439c  tasks/ai-law/ai-model-export-005/documents/04-internal-audit-report-ia-2025-03.pdf
# 88ac4ff0a5b52a0adb339cea2eff094efcca3b97be491374cea7cad2603a9c47  tasks/ai-law/ai-model-export-005/documents/05-email-kestrel-gc-disclosure-schedule.eml
# cd927f20e97a828efce3a9944afcd21f9410603f0ea79b68c1a5fb2d88b2125c  tasks/ai-law/ai-model-export-005/documents/06-deal-team-chat.txt
# f42bc1aa692bc110cd64c6d4dd43d16456d6da0ebc054f336801f4e83003f8e8  tasks/ai-law/ai-model-export-005/documents/07-al-waha-co-investment-term-sheet.pdf
# 00cc10ebfc1d8a9e0154e5621a035a6f7564e5ea44e9071e44bdce8d4e1bf2bb  tasks/ai-law/ai-model-export-005/documents/08-integration-plan-v2.docx
# 7611f9cef85f20745fd9ea8ebf42834abbfe8f3d7226ea52d1e035c65d1fd11c  tasks/ai-law/ai-model-export-005/documents/09-northlake-board-minutes.docx
# 50dc70dea88629ac75644e843299bdcc7a15fb03b95baeb1cea7c2aa905129ee  tasks/ai-law/ai-model-export-005/task.json
# b425c426751a3e3bfd181483de1258414fa8854dbe689582c2f6636cee55a9f6  tasks/ai-law/ai-orion-compute-001/documents/01-master-equipment-purchase-agreement.docx
# ef6027ec72eccb39bacde456c7644b7f820e43f7e548df8030e2a23960d9ac38  tasks/ai-law/ai-orion-compute-001/documents/02-schedule-b-deployment-and-logistics.pdf
# 17a0b849fbbd5bfe4009d79a07084fe06b568392a2b14218d2085f39d3653930  tasks/ai-law/ai-orion-compute-001/documents/03-compliance-reference-advanced-computing.pdf
# 288702f987b5186baded17c749a3739b683bf98412540c9276aeda00b77da318  tasks/ai-law/ai-orion-compute-001/documents/04-customer-kyc-and-shipment-workbook.xlsx
# 6a919a6e9705e9da719c09c3ea609d6d726576a3faf575be4b7b181768fa4904  tasks/ai-law/ai-orion-compute-001/documents/05-product-classification-memo-2022.docx
# cb89d87756649bd45ec47e9db8c320cf000e117939a040577229b6a508958cc6  tasks/ai-law/ai-orion-compute-001/documents/06-audit-risk-committee-minutes-2025-05-22.docx
# 0b019f76406a82054c47dc1b4ec175e450938be8845cd72c2e8efa4444a85be2  tasks/ai-law/ai-orion-compute-001/documents/07-orion-deal-channel-export.txt
# 3731ab8c811b41ee022050d77806bbd3c7e5ebed64e73ccd3d6016ece5873246  tasks/ai-law/ai-orion-compute-001/documents/08-email-forwarder-phase-2-booking.eml
# a84c9cb155ec59d7cde7a80de4da5859e53c8f6d7a5c55beafcd83e4dfb44412  tasks/ai-law/ai-orion-compute-001/documents/09-email-lumora-phase-2-delivery-and-payment.eml
# 80e4b671d04ff7ddd3792c680387ccfd13bafe958b93ad540148382542b472e2  tasks/ai-law/ai-orion-compute-001/task.json
# <<< lae freeze stamp <<<

from lae.env.environment import pocket_entry_point

POCKET = "ai-law"
load_environment = pocket_entry_point(POCKET)

__all__ = ["POCKET", "load_environment"]
