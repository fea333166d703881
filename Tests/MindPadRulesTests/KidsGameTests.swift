import MindPadJSON
import Testing

@testable import MindPadRules

/// The nine kids' exercises: properties of every question over many seeds ×
/// every level × every game, the ranges each level promises
/// (docs/rules.md, "Kids' exercises"), and a level raced through the machine.
@Suite struct KidsGameTests {
    static let seeds: [UInt64] = (0..<250).map { UInt64($0) &* 0x9E37_79B9_7F4A_7C15 &+ 11 }
    static let games = KidsGame.all

    /// Every question of every game at every level, with its game and level.
    static func everyQuestion(_ body: (KidsGame, Int, KidsQuestion) -> Void) {
        for game in games {
            for level in KidsLevel.levels {
                for seed in seeds {
                    for index in 0..<KidsLevel.questionCount {
                        body(game, level, game.question(seed: seed, index: index, mode: .normal, level: level))
                    }
                }
            }
        }
    }

    @Test func theNineGamesAndTheLadder() {
        #expect(Self.games.map(\.identifier) == [
            "kids_counting", "kids_comparing", "kids_colours", "kids_positions", "kids_classifying",
            "kids_addition", "kids_subtraction", "kids_multiplication", "kids_division",
        ])
        #expect(Self.games.map(\.names.zh) == ["数一数", "比多少", "颜色", "位置", "找不同", "加法", "减法", "乘法", "除法"])
        for game in Self.games {
            let info = game.info
            #expect(info.modes == [.normal] && info.normalQuestionCount == 10 && info.answerInput == .choiceOrDigit)
            #expect(info.levels.map(\.en) == ["Ant", "Bee", "Cat", "Dog", "Elephant", "Fox"])
            #expect(info.levels.map(\.zh) == ["蚂蚁", "蜜蜂", "小猫", "小狗", "大象", "狐狸"])
            #expect(info.passMark == 8 && info.hasLevel(1) && info.hasLevel(6) && !info.hasLevel(0) && !info.hasLevel(7))
            #expect(!info.answerInput.isHandwriting && info.answerInput.acceptsDrawing)
        }
        // Games without levels say so.
        #expect(MindPadArithmetic().info.levels.isEmpty && MindPadArithmetic().info.passMark == nil)
        #expect(AddOne().info.levels.isEmpty)
    }

    @Test func everyQuestionHasDistinctOptionsAndExactlyOneRightOne() {
        var count = 0
        Self.everyQuestion { game, level, q in
            count += 1
            let values = q.options.map(\.value)
            #expect(Set(values).count == values.count, "\(game.identifier) L\(level): \(q)")
            #expect(values.filter { $0 == q.answer }.count == 1, "\(game.identifier) L\(level): \(q)")
            let expectedCount = game.exercise == .comparing ? 2 : KidsLevel.optionCount(level: level)
            #expect(q.options.count == expectedCount && (2...4).contains(q.options.count))
            #expect(q.level == level)
            // Exactly one option is graded right.
            #expect(q.options.filter { game.isCorrect(KidsAnswer($0.value)!, to: q) }.count == 1)
            #expect(game.correctAnswer(to: q).value == q.answer)
        }
        #expect(count == 9 * 6 * Self.seeds.count * 10)
    }

    @Test func drawableExactlyWhenTheAnswerIsOneDigitNumber() {
        var drawable = 0, notDrawable = 0
        Self.everyQuestion { game, level, q in
            let numeric: Bool
            switch game.exercise {
            case .counting, .addition, .subtraction, .multiplication, .division: numeric = true
            case .comparing, .colours, .positions, .classifying: numeric = false
            }
            let oneDigit = Int(q.answer).map { (0...9).contains($0) && q.answer.count == 1 } ?? false
            #expect(q.isDrawable == (numeric && oneDigit), "\(game.identifier) L\(level): \(q)")
            #expect(game.isDrawable(q) == q.isDrawable && game.prompt(for: q).drawable == q.isDrawable)
            if q.isDrawable { drawable += 1 } else { notDrawable += 1 }
        }
        #expect(drawable > 0 && notDrawable > 0)
        // A digit written on the pad is that digit's answer; two digits are none.
        let game = KidsGame(.counting)
        #expect(game.answer(handwritten: HandwrittenAnswer(digits: [7])) == KidsAnswer("7"))
        #expect(game.answer(handwritten: HandwrittenAnswer(digits: [1, 2])) == nil)
        #expect(game.answer(handwritten: HandwrittenAnswer(digits: [])) == nil)
    }

    @Test func numbersStayWithinEachLevelsRangesNeverNegativeAndDivisionIsExact() {
        var pictures = Set<Int>(), numbers = Set<Int>()
        Self.everyQuestion { game, level, q in
            for option in q.options where q.isNumeric {
                let n = Int(option.value)
                #expect(n != nil && n! >= 0, "\(game.identifier) L\(level): \(q)")
            }
            let answer = Int(q.answer) ?? -1
            let p = q.picture
            switch game.exercise {
            case .counting:
                #expect(KidsCounting.ranges[level - 1].contains(answer))
                #expect(p.scene == .count && p.items?.first?.count == answer)
                #expect(q.options.allSatisfy { Int($0.value)! >= 1 })
            case .comparing:
                let groups = p.groups!
                let (a, b) = (groups[0].count!, groups[1].count!)
                #expect(KidsComparing.ranges[level - 1].contains(a) && KidsComparing.ranges[level - 1].contains(b))
                #expect(abs(a - b) >= KidsComparing.minimumDifference[level - 1])
                let more = a > b ? "a" : "b"
                #expect(q.answer == (q.ask == "more" ? more : (more == "a" ? "b" : "a")))
            case .colours:
                #expect(q.options.allSatisfy { KidsColours.palettes[level - 1].contains($0.colour!) && $0.value == $0.colour!.rawValue })
                #expect(p.colour?.rawValue == q.answer)
            case .positions:
                let place = KidsPlace(rawValue: String(q.ask.dropFirst("position_".count)))!
                #expect(KidsPositions.asked[level - 1].contains(place))
                let items = p.items!
                #expect(Set(items.map(\.place!)).count == items.count)
                #expect(items.allSatisfy { KidsPositions.places[level - 1].contains($0.place!) && $0.thing != p.reference })
                #expect(items.first { $0.place == place }?.thing?.rawValue == q.answer)
            case .classifying:
                let items = p.items!
                let odd = items[Int(q.answer)!]
                let others = items.enumerated().filter { $0.offset != Int(q.answer)! }.map(\.element)
                #expect(others.allSatisfy { $0.thing!.group == others[0].thing!.group && $0.thing!.group != odd.thing!.group })
                if level == 1 || level == 3 { #expect(Set(others.map(\.thing)).count == 1) }
                if level == 2 || level >= 4 { #expect(Set(others.map(\.thing)).count == others.count) }
            case .addition, .subtraction, .multiplication, .division:
                let op: KidsOperation = switch game.exercise {
                case .addition: .add
                case .subtraction: .subtract
                case .multiplication: .multiply
                default: .divide
                }
                let (left, right) = Self.operands(p)
                let ranges = KidsArithmetic.ranges(op)[level - 1]
                switch op {
                case .add:
                    #expect(left + right == answer && ranges.first.contains(answer))
                    #expect(left >= ranges.second.lowerBound && right >= ranges.second.lowerBound)
                case .subtract:
                    #expect(left - right == answer && answer >= 0 && ranges.first.contains(left) && right >= 1)
                case .multiply:
                    #expect(left * right == answer && ranges.first.contains(left) && ranges.second.contains(right))
                case .divide:
                    #expect(right >= 1 && left % right == 0 && left / right == answer)
                    #expect(ranges.first.contains(right) && ranges.second.contains(answer))
                }
                if KidsArithmetic.pictureLevels.contains(level) {
                    #expect(p.scene != .numbers)
                    pictures.insert(level)
                } else {
                    #expect(p.scene == .numbers && p.op == op)
                    numbers.insert(level)
                }
            }
        }
        #expect(pictures == [1, 2] && numbers == [3, 4, 5, 6])
    }

    /// The operands as the picture shows them: `left op right`.
    static func operands(_ p: KidsPicture) -> (Int, Int) {
        func value(_ o: KidsPicture.Operand?) -> Int {
            switch o! {
            case .number(let n): n
            case .group(let item): item.count!
            }
        }
        switch p.scene {
        // The picture of a product shows `right` groups of `left.count`.
        case .groups: return (value(p.right), value(p.left))
        default: return (value(p.left), value(p.right))
        }
    }

    @Test func theLadderGrows() {
        // The top of each range, level by level, never goes down.
        #expect(KidsCounting.ranges.map(\.upperBound) == [3, 5, 9, 12, 15, 20])
        #expect(KidsArithmetic.ranges(.add).map(\.first.upperBound) == [5, 10, 10, 20, 50, 99])
        #expect(KidsArithmetic.ranges(.add)[5].second.lowerBound == 10)
        for op in KidsOperation.allCases {
            #expect(KidsArithmetic.ranges(op).count == 6)
        }
        // Every level is reached by many seeds: the widest values appear.
        let counts = Set(Self.seeds.map { KidsGame(.counting).question(seed: $0, index: 0, mode: .normal, level: 1).answer })
        #expect(counts == ["1", "2", "3"])
    }

    @Test func questionsAreDeterministicAndDependOnTheLevel() {
        for game in Self.games {
            for seed in Self.seeds.prefix(20) {
                for level in KidsLevel.levels {
                    let forward = (0..<10).map { game.question(seed: seed, index: $0, mode: .normal, level: level) }
                    let backward = (0..<10).reversed().map { game.question(seed: seed, index: $0, mode: .normal, level: level) }
                    #expect(forward == Array(backward.reversed()))
                }
            }
            // Without a level: level 1.
            #expect(game.question(seed: 5, index: 3, mode: .normal) == game.question(seed: 5, index: 3, mode: .normal, level: 1))
            let low = Self.seeds.map { game.question(seed: $0, index: 0, mode: .normal, level: 1) }
            let high = Self.seeds.map { game.question(seed: $0, index: 0, mode: .normal, level: 6) }
            #expect(low != high)
        }
        // Pinned: the same seed gives the same questions on every build.
        let pinned = (0..<5).map { KidsGame(.addition).question(seed: 42, index: $0, mode: .normal, level: 3).description }
        #expect(pinned == Self.pinnedAddition, "\(pinned)")
    }

    static let pinnedAddition = [
        "add L3 [11,9,8,10] = 10", "add L3 [7,6,8,5] = 5", "add L3 [11,13,10,9] = 10", "add L3 [6,3,1,2] = 3",
        "add L3 [11,6,8,9] = 8",
    ]

    @Test func thePromptGoesOnTheWireAsTheContractSays() throws {
        let game = KidsGame(.counting)
        let q = try #require(Self.seeds.lazy.map { game.question(seed: $0, index: 0, mode: .normal, level: 2) }.first { $0.answer == "5" })
        let json = try JSONValueEncoder().encode(game.prompt(for: q))
        #expect(json["ask"] == .string("count") && json["level"] == .int(2) && json["drawable"] == .bool(true))
        #expect(json["picture"]?["scene"] == .string("count"))
        #expect(json["picture"]?["items"]?.array?.first?["count"] == .int(5))
        #expect(json["picture"]?["groups"] == nil && json["picture"]?["left"] == nil)
        #expect(json["options"]?.array?.count == 3 && json["options"]?.array?.first?["thing"] == nil)
        #expect(json["answer"] == nil)
        // Numbers at Fox: left and right are numbers.
        let fox = KidsGame(.division).question(seed: 1, index: 0, mode: .normal, level: 6)
        let foxJSON = try JSONValueEncoder().encode(KidsPrompt(fox))
        #expect(foxJSON["picture"]?["scene"] == .string("numbers") && foxJSON["picture"]?["op"] == .string("divide"))
        #expect(foxJSON["picture"]?["left"]?.integer != nil)
        // Pictures at Ant: left is a group.
        let ant = KidsGame(.addition).question(seed: 1, index: 0, mode: .normal, level: 1)
        let antJSON = try JSONValueEncoder().encode(KidsPrompt(ant))
        #expect(antJSON["picture"]?["scene"] == .string("sum") && antJSON["picture"]?["left"]?["count"]?.integer != nil)
        // It reads back as it was.
        #expect(try JSONValueDecoder().decode(KidsPrompt.self, from: antJSON) == KidsPrompt(ant))
        #expect(try JSONValueDecoder().decode(KidsPrompt.self, from: foxJSON) == KidsPrompt(fox))
    }

    @Test func answersAreOptionValuesAndAnythingElseIsRefused() throws {
        #expect(try JSONValueDecoder().decode(KidsAnswer.self, from: .string("red")) == KidsAnswer("red"))
        for bad: JSON in [.int(7), .string(""), .string("Red"), .string("a b"), .string(String(repeating: "a", count: 17)), .null] {
            #expect(throws: (any Error).self) { try JSONValueDecoder().decode(KidsAnswer.self, from: bad) }
        }
        #expect(try JSONValueEncoder().encode(KidsAnswer("7")!) == .string("7"))
    }

    /// Issue 45: a tapped value must be one of the question's options,
    /// refused (`bad_answer`) otherwise, before it is judged or counted; a
    /// digit written on a drawable question may be any digit (a wrong one is
    /// graded wrong).
    @Test func aTapMustBeOneOfTheOptions() throws {
        var generator = SeededGenerator(seed: 7, stream: 0)
        for exercise in KidsExercise.allCases {
            let kind = KidsGame(exercise)
            for level in KidsLevel.levels {
                let q = exercise.question(level: level, using: &generator)
                for option in q.options {
                    #expect(kind.refusal(of: KidsAnswer(option.value)!, to: q, attempt: NoAttempt(), drawn: false) == nil)
                }
                for value in ["9", "0", "zebra", "red", "a", "cat"] where !q.options.contains(where: { $0.value == value }) {
                    let refusal = kind.refusal(of: KidsAnswer(value)!, to: q, attempt: NoAttempt(), drawn: false)
                    #expect(refusal?.code == "bad_answer", "\(exercise) L\(level) \(value)")
                    // Written on the pad: a drawable question takes any digit.
                    let written = kind.refusal(of: KidsAnswer(value)!, to: q, attempt: NoAttempt(), drawn: true)
                    #expect((written == nil) == (q.isDrawable), "\(exercise) L\(level) \(value) drawn")
                }
            }
        }
        // Through the machine: refused, nothing counted.
        var race = RaceHarness(kind: KidsGame(.colours), configuration: RaceConfiguration(mode: .normal))
        race.send(.join("ann", name: name("Ann")))
        race.send(.start(by: "ann"))
        race.fireTimer()
        let effects = race.answer("ann", KidsAnswer("zebra")!)
        #expect(effects.rejections.map(\.1.code) == ["bad_answer"] && effects.outcomes.isEmpty)
    }

    @Test func theUnlockRuleAtSevenEightAndTenCorrect() {
        #expect(!LevelLadder.passes(correct: 7, passMark: KidsLevel.passMark))
        #expect(LevelLadder.passes(correct: 8, passMark: KidsLevel.passMark))
        #expect(LevelLadder.passes(correct: 10, passMark: KidsLevel.passMark))
        // 7 on level 1 opens nothing; 8 opens level 2; 10 on level 2 opens 3.
        #expect(LevelLadder.passed(after: [(1, 7)], passMark: 8) == [])
        #expect(LevelLadder.highestOpen(passed: LevelLadder.passed(after: [(1, 7)], passMark: 8), levelCount: 6) == 1)
        #expect(LevelLadder.passed(after: [(1, 8)], passMark: 8) == [1])
        #expect(LevelLadder.highestOpen(passed: [1], levelCount: 6) == 2)
        #expect(LevelLadder.passed(after: [(1, 8), (2, 10)], passMark: 8) == [1, 2])
        #expect(LevelLadder.highestOpen(passed: [1, 2], levelCount: 6) == 3)
        // A locked level played (a crafted client) opens nothing, even at 10.
        #expect(LevelLadder.passed(after: [(3, 10)], passMark: 8) == [])
        #expect(LevelLadder.passed(after: [(2, 10), (1, 9)], passMark: 8) == [1])
        #expect(!LevelLadder.isOpen(2, passed: []) && LevelLadder.isOpen(1, passed: []) && LevelLadder.isOpen(3, passed: [2]))
        // The top level stays the highest open one.
        #expect(LevelLadder.highestOpen(passed: Set(1...6), levelCount: 6) == 6)
    }

    @Test func aLevelRacesThroughTheMachineWithTheSameQuestionsForEveryone() {
        var race = RaceHarness(kind: KidsGame(.subtraction), configuration: RaceConfiguration(mode: .normal, level: 4))
        race.send(.join("ann", name: name("Ann")))
        race.send(.join("bo", name: name("Bo")))
        #expect(race.machine.snapshot.level == 4)
        race.send(.start(by: "ann"))
        race.fireTimer()
        var annQuestions: [KidsQuestion] = [], boQuestions: [KidsQuestion] = []
        for i in 0..<10 {
            race.wait(.seconds(2))
            annQuestions.append(race.lastQuestion(for: "ann")!.question)
            boQuestions.append(race.lastQuestion(for: "bo")!.question)
            // Ann taps a wrong option at the last two (a value none of the options would be refused).
            let asked = race.lastQuestion(for: "ann")!.question
            if i < 8 { race.answerCorrectly("ann") } else { race.answer("ann", KidsAnswer(asked.options.first { $0.value != asked.answer }!.value)!) }
            race.answerCorrectly("bo")
        }
        #expect(annQuestions == boQuestions && annQuestions.allSatisfy { $0.level == 4 })
        let standings = race.log.standings.first!
        #expect(standings.entries.map(\.result.player) == ["bo", "ann"])
        #expect(standings.entries.map(\.result.score) == [10, 8])
        #expect(standings.entries.allSatisfy { $0.result.level == 4 })
    }
}
