import CFoldBreakData
import CFoldICU
import Foundation
@testable import Fold
import FoldICU
import Testing

/// Fold's word break iterator (``RuleBasedWords``, on the rules and dictionaries baked in
/// CFoldBreakData) against ICU's own (`ICU.wordSegments`, the linked libicu): the same segments,
/// byte for byte, before Fold's `adjust`.
///
/// The one expected difference: Fold bakes no CJK dictionary, so inside a run of Han and kana
/// ICU's segments can be finer than Fold's. There the words after `WordBreaker.adjust` (each
/// ideograph and kana a word of its own) must be the same; `DictionaryBreak` says why.
@Suite struct WordSegmenterTests {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    // MARK: Helpers

    static func ours(_ bytes: [UInt8]) -> [Range<Int>] {
        bytes.withUnsafeBufferPointer { RuleBasedWords.segments(in: $0) }
    }

    static func icu(_ bytes: [UInt8]) -> [Range<Int>] {
        // ICU's iterator can fail only when it cannot allocate: a broken test machine.
        bytes.withUnsafeBufferPointer { (try? ICU.wordSegments(utf8: $0)) ?? [0..<(-1)] }
    }

    static let han = ICU.scriptCode("Hani"), hiragana = ICU.scriptCode("Hira"), katakana = ICU.scriptCode("Kana")

    /// A character of ICU's CJK engine (CjkBreakEngine's set: Han, Hiragana, Katakana and
    /// U+30FC, U+FF70, U+FF9E, U+FF9F), the one engine Fold leaves out.
    static func isCJK(_ c: Unicode.Scalar) -> Bool {
        let s = ICU.script(c.value)
        return s == han || s == hiragana || s == katakana || [0x30FC, 0xFF70, 0xFF9E, 0xFF9F].contains(c.value)
    }

    /// Whether our segments are ICU's; with CJK in the text, whether the words after `adjust` are.
    /// Returns false when the raw segments differed (allowed only with CJK).
    @discardableResult
    static func expectSameAsICU(_ text: String, _ sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
        let bytes = Array(text.utf8)
        let ours = Self.ours(bytes), icu = Self.icu(bytes)
        if ours == icu { return true }
        guard text.unicodeScalars.contains(where: isCJK) else {
            Issue.record("\(describe(text)): ours \(ours), ICU's \(icu)", sourceLocation: sourceLocation)
            return false
        }
        // ICU's segments joined at its boundaries that are not ours, where both sides are CJK
        // characters (the CJK dictionary's boundaries): ours.
        #expect(mergedInsideCJK(icu, bytes, keeping: ours) == ours, "\(describe(text)): ours \(ours), ICU's \(icu)", sourceLocation: sourceLocation)
        let adjusted = bytes.withUnsafeBufferPointer { (WordBreaker.adjust(ours, in: $0), WordBreaker.adjust(icu, in: $0)) }
        #expect(adjusted.0 == adjusted.1, "\(describe(text)) after adjust: ours \(adjusted.0), ICU's \(adjusted.1)", sourceLocation: sourceLocation)
        return false
    }

    /// Adjacent segments joined where the characters on both sides of the boundary are CJK,
    /// unless the boundary is one of `kept`'s.
    static func mergedInsideCJK(_ segments: [Range<Int>], _ bytes: [UInt8], keeping kept: [Range<Int>]) -> [Range<Int>] {
        let keptBoundaries = Set(kept.flatMap { [$0.lowerBound, $0.upperBound] })
        func scalar(at i: Int) -> Unicode.Scalar? {
            guard i >= 0 && i < bytes.count else { return nil }
            var end = i + 1
            while end < bytes.count && bytes[end] & 0xC0 == 0x80 { end += 1 }
            return String(decoding: bytes[i..<end], as: UTF8.self).unicodeScalars.first
        }
        func isInsideCJK(_ b: Int) -> Bool {
            var before = b - 1
            while before > 0 && bytes[before] & 0xC0 == 0x80 { before -= 1 }
            guard let x = scalar(at: before), let y = scalar(at: b) else { return false }
            return isCJK(x) && isCJK(y)
        }
        var merged: [Range<Int>] = []
        for segment in segments {
            if let last = merged.last, last.upperBound == segment.lowerBound, !keptBoundaries.contains(segment.lowerBound), isInsideCJK(segment.lowerBound) {
                merged[merged.count - 1] = last.lowerBound..<segment.upperBound
            } else {
                merged.append(segment)
            }
        }
        return merged
    }

    static func describe(_ text: String) -> String {
        let shown = text.unicodeScalars.prefix(40).map { "U+" + String($0.value, radix: 16, uppercase: true) }.joined(separator: " ")
        return "\"\(text.prefix(40))\" [\(shown)\(text.unicodeScalars.count > 40 ? " ..." : "")]"
    }

    // MARK: Real text in the dictionary scripts

    /// Paragraphs of real text: the Universal Declaration of Human Rights' first article,
    /// news-like sentences with digits, Latin, punctuation, and Thai's repetition and
    /// abbreviation marks (ๆ, ฯ).
    static let paragraphs: [String] = [
        // Thai
        "มนุษย์ทั้งหลายเกิดมามีอิสระและเสมอภาคกันในเกียรติศักดิ์และสิทธิ ต่างมีเหตุผลและมโนธรรม และควรปฏิบัติต่อกันด้วยเจตนารมณ์แห่งภราดรภาพ",
        "กรุงเทพฯ 15 มี.ค. 2566 – นายกรัฐมนตรีเดินทางไปประชุมผู้นำ ASEAN ที่กรุงจาการ์ตา ประเทศอินโดนีเซีย เมื่อเวลา 09:30 น. พร้อมด้วยรัฐมนตรีว่าการกระทรวงการต่างประเทศ",
        "ราคาน้ำมันดีเซลวันนี้ลดลง 0.50 บาทต่อลิตร เหลือ 31.94 บาท ส่วนแก๊สโซฮอล์ 95 อยู่ที่ 37.05 บาท (ข้อมูลจาก ปตท.)",
        "เด็กๆ ในหมู่บ้านชอบเล่นฟุตบอลกันทุกวันหลังเลิกเรียน บางคนก็ไปเล่นเกมออนไลน์ เช่น ROV และ Minecraft ฯลฯ",
        "ภาษาไทยเป็นภาษาราชการของประเทศไทย มีผู้พูดประมาณ ๖๕ ล้านคน เขียนด้วยอักษรไทยซึ่งพัฒนามาจากอักษรขอมโบราณ",
        "สำนักงานสถิติแห่งชาติรายงานว่าอัตราการว่างงานในไตรมาสที่ 3 อยู่ที่ร้อยละ 0.99 ต่ำที่สุดในรอบหลายปี",
        "ผมไปซื้อกาแฟที่ร้าน Starbucks ใกล้ๆ สถานีรถไฟฟ้า BTS อโศก แล้วนั่งทำงานกับ laptop จนถึงบ่ายสองโมง",
        // Lao
        "ມະນຸດທັງຫຼາຍເກີດມາມີສິດເສລີພາບ ແລະ ສະເໝີໜ້າກັນໃນທາງກຽດຕິສັກ ແລະ ທາງສິດ. ທຸກໆຄົນມີເຫດຜົນ ແລະ ຄວາມຄິດຄວາມເຫັນສ່ວນຕົວຂອງໃຜລາວ, ແຕ່ລະບຸກຄົນຕ້ອງປະພຶດຕົນຕໍ່ກັນໃນທາງພີ່ນ້ອງ.",
        "ນະຄອນຫຼວງວຽງຈັນ, ວັນທີ 2 ທັນວາ 2022: ລັດຖະບານ ສປປ ລາວ ໄດ້ຈັດກອງປະຊຸມກ່ຽວກັບການພັດທະນາເສດຖະກິດ ແລະ ສັງຄົມ ຮ່ວມກັບອົງການ UNDP.",
        "ພາສາລາວແມ່ນພາສາທາງການຂອງປະເທດລາວ ມີຜູ້ເວົ້າປະມານ 7 ລ້ານຄົນ ແລະ ຂຽນດ້ວຍອັກສອນລາວ.",
        "ລົດໄຟລາວ-ຈີນ ແລ່ນຈາກນະຄອນຫຼວງວຽງຈັນ ໄປຫາ ບໍ່ເຕັນ ໃຊ້ເວລາປະມານ 4 ຊົ່ວໂມງ ໃນລາຄາ 250.000 ກີບ.",
        // Khmer
        "មនុស្សទាំងអស់ កើតមកមានសេរីភាព និងសមភាព ក្នុងផ្នែកសេចក្ដីថ្លៃថ្នូរ និងសិទ្ធិ។ មនុស្សគ្រប់រូបសុទ្ធតែមានវិចារណញ្ញាណ និងសតិសម្បជញ្ញៈ ហើយត្រូវប្រព្រឹត្ដចំពោះគ្នាទៅវិញទៅមក ក្នុងស្មារតីភាតរភាពជាបងប្អូន។",
        "រាជធានីភ្នំពេញ ថ្ងៃទី១៥ ខែមីនា ឆ្នាំ២០២៣៖ ក្រសួងសុខាភិបាលបានប្រកាសថា មានករណីឆ្លងថ្មីចំនួន 12 នាក់ ដែលទាំងអស់ជាអ្នកដំណើរមកពីក្រៅប្រទេស។",
        "ភាសាខ្មែរគឺជាភាសាផ្លូវការនៃព្រះរាជាណាចក្រកម្ពុជា ហើយត្រូវបានសរសេរដោយអក្សរខ្មែរ។",
        "តម្លៃប្រេងសាំងនៅថ្ងៃនេះគឺ 4,150 រៀល ក្នុងមួយលីត្រ បើតាមក្រុមហ៊ុន Total និង Tela ។",
        // Myanmar
        "လူတိုင်းသည် တူညီ လွတ်လပ်သော ဂုဏ်သိက္ခာ ဖြင့် လည်းကောင်း၊ တူညီလွတ်လပ်သော အခွင့်အရေးများဖြင့် လည်းကောင်း၊ မွေးဖွားလာသူများ ဖြစ်သည်။ ထိုသူတို့၌ ပိုင်းခြား ဝေဖန်တတ်သော ဉာဏ်နှင့် ကျင့်ဝတ် သိတတ်သော စိတ်တို့ရှိကြ၍ ထိုသူတို့သည် အချင်းချင်း မေတ္တာထား၍ ဆက်ဆံကျင့်သုံးသင့်၏။",
        "ရန်ကုန်မြို့၊ ဇန်နဝါရီလ ၁၅ ရက်။ မြန်မာနိုင်ငံတွင် မိုးရွာသွန်းမှုကြောင့် ရေကြီးရေလျှံမှုများ ဖြစ်ပွားခဲ့ပြီး လူ 2,500 ခန့် နေရပ်စွန့်ခွာခဲ့ရသည်။",
        "မြန်မာဘာသာစကားသည် မြန်မာနိုင်ငံ၏ ရုံးသုံးဘာသာစကား ဖြစ်ပြီး ပြောဆိုသူ သန်း ၃၀ ကျော် ရှိသည်။",
        "ကျွန်တော် မနက်ဖြန် Facebook မှာ ဓာတ်ပုံတွေ တင်ပါမယ်။ Wi-Fi မကောင်းလို့ ဒီနေ့ မတင်နိုင်ဘူး။",
        // Mixed
        "Thai ไทย, Lao ລາວ, Khmer ខ្មែរ and Burmese မြန်မာ in one line: 1,234.56 @home e-mail a@b.c",
        "ภาษาไทย123abc ລາວ456 ខ្មែរ٧٨٩ မြန်မာ၁၂၃ 日本語のテキスト 한국어 문장",
    ]

    @Test(arguments: paragraphs)
    func realTextInTheDictionaryScripts(_ text: String) {
        // Each paragraph as a whole and each of its pieces between spaces.
        Self.expectSameAsICU(text)
        for piece in text.split(separator: " ") { Self.expectSameAsICU(String(piece)) }
    }

    // MARK: Every corpus line of the repository

    /// The text files of TestVectors/, Tests/ (sources and fixtures, which hold the test
    /// strings) and Benchmarks/Corpora (written by `make corpora`; absent, they are skipped
    /// with a note).
    static func corpusLines() throws -> [String] {
        var files: [URL] = []
        let manager = FileManager.default
        for folder in ["TestVectors", "Tests", "Benchmarks/Corpora"] {
            let url = packageRoot.appendingPathComponent(folder)
            guard let walker = manager.enumerator(at: url, includingPropertiesForKeys: nil) else { continue }
            for case let file as URL in walker where !file.hasDirectoryPath { files.append(file) }
        }
        var seen = Set<String>()
        var lines: [String] = []
        for file in files.sorted(by: { $0.path < $1.path }) {
            guard let text = try? String(contentsOf: file, encoding: .utf8) else { continue }
            for line in text.split(separator: "\n", omittingEmptySubsequences: true) where seen.insert(String(line)).inserted {
                lines.append(String(line))
            }
        }
        return lines
    }

    @Test func everyCorpusLine() throws {
        let lines = try Self.corpusLines()
        #expect(lines.count > 1000)
        if !FileManager.default.fileExists(atPath: Self.packageRoot.appendingPathComponent("Benchmarks/Corpora/mixed.txt").path) {
            print("WordSegmenterTests: Benchmarks/Corpora is absent (make corpora); its lines were not compared")
        }
        var cjkDifferences = 0
        for line in lines where !Self.expectSameAsICU(line) { cjkDifferences += 1 }
        print("WordSegmenterTests: \(lines.count) distinct corpus lines; \(cjkDifferences) differ from ICU only inside CJK runs (the same after adjust)")
    }

    // MARK: Seeded random mixes of scripts

    /// Runs of characters drawn from every script Fold's word boundaries care about, and any
    /// code point at all.
    static let pools: [[ClosedRange<UInt32>]] = [
        [0x61...0x7A, 0x41...0x5A], [0x30...0x39], [0x20...0x20, 0x0A...0x0A, 0x0D...0x0D, 0x09...0x09, 0x3000...0x3000],
        [0x40...0x40, 0x2E...0x2E, 0x2C...0x2C, 0x27...0x27, 0x3A...0x3A, 0x5F...0x5F, 0x22...0x22, 0x2019...0x2019, 0xB7...0xB7, 0x3B...0x3B, 0x2D...0x2D],
        [0x0E01...0x0E5B], [0x0E81...0x0EDF], [0x1780...0x17F9, 0x19E0...0x19FF], [0x1000...0x109F, 0xA9E0...0xA9FE, 0xAA60...0xAA7F],
        [0x1A20...0x1AAD], [0xAA80...0xAADF], [0x1950...0x19DA],
        [0xAC00...0xD7A3, 0x1100...0x11FF, 0x3130...0x318F],
        [0x3041...0x3096, 0x30A1...0x30FA, 0x3099...0x309C, 0x30FC...0x30FE, 0x309D...0x309F],
        [0xFF65...0xFF9F], [0x4E00...0x9FFF, 0x3400...0x4DBF, 0x20000...0x2A6DF, 0xF900...0xFAFF],
        [0x2E80...0x2EF3, 0x2F00...0x2FD5, 0x3005...0x3007, 0x3021...0x3029, 0x303B...0x303B, 0x31C0...0x31E3, 0x16FE2...0x16FE4, 0x16FF0...0x16FF1],
        [0x0300...0x036F, 0x0E31...0x0E31, 0x0E34...0x0E3A, 0x0E47...0x0E4E, 0x1AB0...0x1ABE, 0x20D0...0x20F0, 0xFE00...0xFE0F, 0xE0100...0xE01EF],
        [0x200B...0x200F, 0x00AD...0x00AD, 0x2060...0x2064, 0xFEFF...0xFEFF],
        [0x1F300...0x1F5FF, 0x1F900...0x1F9FF, 0x2600...0x27BF, 0x1F1E6...0x1F1FF, 0x1F3FB...0x1F3FF, 0x200D...0x200D, 0xFE0F...0xFE0F],
        [0x05D0...0x05EA, 0x05F3...0x05F4], [0x0600...0x06FF], [0x0900...0x097F], [0x0370...0x03FF, 0x0400...0x04FF],
        [0xFF10...0xFF19, 0xFF21...0xFF3A, 0xFF41...0xFF5A, 0xFF0E...0xFF0E, 0xFF07...0xFF07],
        [0x0...0x10FFFF],
    ]

    /// The suite's seeded generator (Support.swift), as these tests draw from it.
    typealias Generator = SeededGenerator

    static func randomText(_ g: inout Generator, pools: [[ClosedRange<UInt32>]]) -> String {
        var scalars = String.UnicodeScalarView()
        for _ in 0..<(1 + g.below(12)) {
            let pool = pools[g.below(pools.count)]
            for _ in 0..<(1 + g.below(8)) {
                let range = pool[g.below(pool.count)]
                let value = range.lowerBound + UInt32(g.below(Int(range.upperBound - range.lowerBound) + 1))
                if let scalar = Unicode.Scalar(value) { scalars.append(scalar) }
            }
        }
        return String(scalars)
    }

    @Test(arguments: [1, 2, 3, 4])
    func seededRandomMixes(_ seed: UInt64) {
        var g = Generator(seed: seed)
        var cjk = 0
        for _ in 0..<25_000 where !Self.expectSameAsICU(Self.randomText(&g, pools: Self.pools)) { cjk += 1 }
        print("WordSegmenterTests: seed \(seed): 25000 random texts; \(cjk) differ from ICU only inside CJK runs (the same after adjust)")
    }

    /// The dictionary scripts alone, in long runs: the engines' look-ahead, resynchronisation
    /// and suffix paths on text no dictionary knows.
    @Test(arguments: [5, 6])
    func seededRandomDictionaryScriptRuns(_ seed: UInt64) {
        var g = Generator(seed: seed)
        let pools = Array(Self.pools[4...7]) + [Self.pools[0], Self.pools[2], [0x0E2F...0x0E2F, 0x0E46...0x0E46, 0x200C...0x200D]]
        for _ in 0..<10_000 {
            var text = ""
            for _ in 0..<(1 + g.below(4)) { text += Self.randomText(&g, pools: [pools[g.below(pools.count)]]) }
            Self.expectSameAsICU(text)
        }
    }

    // MARK: Han, kana and the CJK dictionary

    /// Why Fold bakes no cjdict: on texts mixing Han, kana, radicals, the iteration mark, voiced
    /// marks, halfwidth katakana, Latin, digits and Thai, the words after `adjust` are ICU's.
    @Test func cjkRunsGiveICUsWordsAfterAdjust() {
        let cases = [
            "日本語のテキストを分割します。東京都は2023年に人口が1400万人を超えた。",
            "時々、人々は山々を見る。々",
            "カタカナ_abc ｶﾀｶﾅﾞ_x ｶﾞｷﾞ ﾞ_a か\u{3099}き\u{3099} か\u{309A}_b ゛゜ゝゞヽヾ ー ｰ",
            "⺀⺁⼀⼁漢⺀字 〇〡〢〩 〻 漢\u{FE00}字\u{0301} 漢ﾞ字ﾟ",
            "中文分词测试：我们在北京大学学习自然语言处理。ABC123中文456",
            "ภาษาไทย漢字カナ123abcひらがなไทย_カ_ไทย",
            "𠀀𠀁𪜀 ㇰㇱ ㋐㋑ ㌀ 龘靐 ＡＢＣ１２３日本",
        ]
        for text in cases { Self.expectSameAsICU(text) }
        // Halfwidth voiced marks are Extend after katakana and in the CJK engine's set: the one
        // place a CJK boundary could fall inside a piece with letters (katakana, "_", letters).
        for k in 1...30 {
            let marks = String(repeating: "ﾞ", count: k)
            for text in ["ｶ\(marks)_a", "ア\(marks)_a1", String(repeating: "ｱ", count: k) + "ﾞﾟﾞ_x", "漢ｶ\(marks)ｷ\(marks)_b"] {
                Self.expectSameAsICU(text)
            }
        }
        var g = Generator(seed: 7)
        let pools = [Self.pools[0], Self.pools[1], Self.pools[2], Self.pools[3], Self.pools[4], Self.pools[12], Self.pools[13], Self.pools[14], Self.pools[15], Self.pools[16], Self.pools[18]]
        var differing = 0
        for _ in 0..<30_000 where !Self.expectSameAsICU(Self.randomText(&g, pools: pools)) { differing += 1 }
        print("WordSegmenterTests: 30000 CJK mixes; \(differing) differ from ICU before adjust, none after")
    }

    // MARK: Every code point

    /// Every code point alone, after a letter and before one.
    @Test func everyCodePointAloneAndBesideALetter() {
        var differing = 0
        for value in UInt32(0)...0x10FFFF {
            guard let c = Unicode.Scalar(value) else { continue }
            let s = String(c)
            for text in [s, "a" + s, s + "a", "\u{0E01}" + s + "\u{0E01}\u{0E32}"] where !Self.expectSameAsICU(text) {
                differing += 1
            }
        }
        print("WordSegmenterTests: every code point: \(differing) texts differ from ICU only inside CJK runs")
    }

    // MARK: Long and hostile texts

    /// Texts that make the state machine look far ahead, or the dictionary engines work on one
    /// long run without a dictionary word: ICU's segments, in linear time, without recursion.
    static func hostileTexts() -> [(String, String)] {
        var g = Generator(seed: 9)
        func run(_ range: ClosedRange<UInt32>, _ n: Int) -> String {
            String(String.UnicodeScalarView((0..<n).compactMap { _ in Unicode.Scalar(range.lowerBound + UInt32(g.below(Int(range.upperBound - range.lowerBound) + 1))) }))
        }
        return [
            ("a and 200000 combining marks", "a" + String(repeating: "\u{0301}", count: 200_000)),
            ("a. and 100000 marks and !", "a." + String(repeating: "\u{0301}", count: 100_000) + "!"),
            ("100000 ZWJ", String(repeating: "\u{200D}", count: 100_000)),
            ("1,1,1,...", "1" + String(repeating: ",1", count: 50_000) + ","),
            ("a.a.a....", String(repeating: "a.", count: 50_000) + "."),
            ("regional indicators", String(repeating: "\u{1F1E6}\u{1F1E8}\u{1F1E6}", count: 20_000)),
            ("Hebrew quotes", String(repeating: "\u{05D0}\"", count: 50_000)),
            ("@ and dots", String(repeating: "a@b.", count: 30_000)),
            ("ๆฯ repeated", String(repeating: "กๆฯ", count: 30_000)),
            ("200000 random Thai", run(0x0E01...0x0E5B, 200_000)),
            ("100000 random Lao", run(0x0E81...0x0EDF, 100_000)),
            ("100000 random Khmer", run(0x1780...0x17DD, 100_000)),
            ("100000 random Myanmar", run(0x1000...0x109F, 100_000)),
            ("Thai words without spaces", String(repeating: "ภาษาไทยเป็นภาษาราชการ", count: 10_000)),
            ("100000 Hangul syllables", run(0xAC00...0xD7A3, 100_000)),
        ]
    }

    @Test func longAndHostileTexts() {
        for (name, text) in Self.hostileTexts() {
            let bytes = Array(text.utf8)
            #expect(Self.ours(bytes) == Self.icu(bytes), "\(name)")
        }
    }

    // MARK: The baked data

    /// CFoldBreakData holds the linked ICU's word rules and dictionaries byte for byte (else:
    /// `make generate`).
    @Test func theBakedDataIsTheLinkedICUs() {
        func icuBytes(_ read: (UnsafeMutablePointer<UInt8>?, Int32, UnsafeMutablePointer<Int32>) -> Int32) -> [UInt8] {
            var status: Int32 = 0
            var bytes = [UInt8](repeating: 0, count: Int(read(nil, 0, &status)))
            _ = bytes.withUnsafeMutableBufferPointer { read($0.baseAddress, Int32($0.count), &status) }
            #expect(status <= 0)
            return bytes
        }
        let rules = icuBytes { cfold_word_break_rules($0, $1, $2) }
        #expect(rules == Array(UnsafeBufferPointer(start: cfold_break_word_rules, count: Int(cfold_break_word_rules_length))), "the word rules differ from the linked ICU's: run make generate")
        let dictionaries = [
            ("thaidict", cfold_break_thai_dictionary, cfold_break_thai_dictionary_length),
            ("laodict", cfold_break_lao_dictionary, cfold_break_lao_dictionary_length),
            ("khmerdict", cfold_break_khmer_dictionary, cfold_break_khmer_dictionary_length),
            ("burmesedict", cfold_break_burmese_dictionary, cfold_break_burmese_dictionary_length),
        ]
        for (name, baked, length) in dictionaries {
            let bytes = icuBytes { cfold_break_dictionary(name, $0, $1, $2) }
            #expect(bytes.count > 100_000 && bytes == Array(UnsafeBufferPointer(start: baked, count: Int(length))), "\(name) differs from the linked ICU's: run make generate")
        }
    }

    /// The empty text and a text of one byte.
    @Test func edges() {
        #expect(Self.ours([]) == [])
        #expect(Self.ours(Array("a".utf8)) == [0..<1])
        #expect(Self.ours(Array(" ".utf8)) == [])
    }

    // MARK: Timing

    /// The best of five runs of `rounds` segmentations, ours and ICU's.
    static func time(_ label: String, _ bytes: [UInt8], rounds: Int) {
        func run(_ body: (UnsafeBufferPointer<UInt8>) -> Int) -> Double {
            var best = Double.infinity
            for _ in 0..<5 {
                let t0 = DispatchTime.now().uptimeNanoseconds
                var n = 0
                bytes.withUnsafeBufferPointer { for _ in 0..<rounds { n &+= body($0) } }
                let t = Double(DispatchTime.now().uptimeNanoseconds - t0) / 1e9
                if n < 0 { print(n) }
                best = min(best, t)
            }
            return best
        }
        let ours = run { RuleBasedWords.segments(in: $0).count }
        let icu = run { (try? ICU.wordSegments(utf8: $0))!.count }
        let mb = Double(bytes.count * rounds) / 1e6
        print(String(format: "WordSegmenterTests timing, %@: %d bytes x %d: ours %.3f s (%.1f MB/s), ICU %.3f s (%.1f MB/s), ratio ours/ICU %.2f", label, bytes.count, rounds, ours, mb / ours, icu, mb / icu, ours / icu))
    }

    /// Not a timed test: prints the time of ours and ICU's on the paragraphs above, the hostile
    /// texts and the corpora, when FOLD_SEGMENTER_TIMING is set (release build:
    /// `FOLD_SEGMENTER_TIMING=1 swift test -c release ... --filter WordSegmenterTests/timing`).
    @Test(.enabled(if: ProcessInfo.processInfo.environment["FOLD_SEGMENTER_TIMING"] != nil))
    func timingAgainstICU() throws {
        let thai = Self.paragraphs[0..<7].joined(separator: "\n")
        let lao = Self.paragraphs[7..<11].joined(separator: "\n")
        let khmer = Self.paragraphs[11..<15].joined(separator: "\n")
        let burmese = Self.paragraphs[15..<19].joined(separator: "\n")
        let mixedLines = WordSegmenterTests.paragraphs.joined(separator: "\n")
        Self.time("thai", Array(thai.utf8), rounds: 2000)
        Self.time("lao", Array(lao.utf8), rounds: 2000)
        Self.time("khmer", Array(khmer.utf8), rounds: 2000)
        Self.time("burmese", Array(burmese.utf8), rounds: 2000)
        Self.time("all paragraphs", Array(mixedLines.utf8), rounds: 500)
        for (name, text) in Self.hostileTexts() { Self.time(name, Array(text.utf8), rounds: 1) }
        let corpus = try String(contentsOf: Self.packageRoot.appendingPathComponent("Benchmarks/Corpora/mixed.txt"), encoding: .utf8)
        Self.time("Corpora/mixed.txt first 2 MB", Array(corpus.utf8.prefix(2_000_000)), rounds: 3)
        let english = try String(contentsOf: Self.packageRoot.appendingPathComponent("Benchmarks/Corpora/english.txt"), encoding: .utf8)
        Self.time("Corpora/english.txt first 2 MB", Array(english.utf8.prefix(2_000_000)), rounds: 3)
    }
}
