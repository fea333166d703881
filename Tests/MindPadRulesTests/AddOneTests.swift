import MindPadJSON
import Testing

@testable import MindPadRules

/// The Add-One kind (the Fish game): questions, answers, schedule, points,
/// and a race through the machine with keypad answers counted.
@Suite struct AddOneTests {
    static let modes = GameMode.allCases
    static let seeds: [UInt64] = (0..<300).map { UInt64($0) &* 0x9E37_79B9_7F4A_7C15 &+ 7 }

    @Test func workedExamples() {
        let kind = AddOne()
        for (question, answer) in [("2139", "3240"), ("1999", "2000"), ("909", "010"), ("00", "11"), ("99", "00"),
                                   ("123456", "234567")] {
            let q = AddOneQuestion(digits: DigitString(question)!)!
            #expect(kind.correctAnswer(to: q).text == answer)
            #expect(kind.isCorrect(DigitString(answer)!, to: q))
        }
        // Leading zeros are part of the answer: "10" is not "010".
        let q909 = AddOneQuestion(digits: DigitString("909")!)!
        #expect(!kind.isCorrect(DigitString("10")!, to: q909))
        #expect(!kind.isCorrect(DigitString("0100")!, to: q909))
    }

    @Test func questionsAreTwoToSixDigitsWithDigitwiseAnswersForManySeeds() {
        let kind = AddOne()
        var lengths = Set<Int>()
        var leadingZero = false
        for seed in Self.seeds {
            for mode in Self.modes {
                for index in 0..<40 {
                    let q = kind.question(seed: seed, index: index, mode: mode)
                    let digits = q.digits.digits
                    #expect(AddOneSchedule.lengths.contains(digits.count))
                    #expect(AddOneSchedule.range(mode: mode, index: index).contains(digits.count))
                    let answer = kind.correctAnswer(to: q).digits
                    #expect(answer.count == digits.count)
                    #expect(zip(digits, answer).allSatisfy { ($0 + 1) % 10 == $1 })
                    // The prompt is the digits, nothing more.
                    #expect(kind.prompt(for: q).digits == q.digits.text)
                    lengths.insert(digits.count)
                    leadingZero = leadingZero || digits[0] == 0
                }
            }
        }
        #expect(lengths == Set(2...6))
        #expect(leadingZero)
    }

    @Test func questionsAreDeterministicPerSeedIndexAndMode() {
        let kind = AddOne()
        for seed in Self.seeds.prefix(50) {
            for mode in Self.modes {
                // Any order, any number of times: the same question.
                let forward = (0..<30).map { kind.question(seed: seed, index: $0, mode: mode) }
                let backward = (0..<30).reversed().map { kind.question(seed: seed, index: $0, mode: mode) }
                #expect(forward == Array(backward.reversed()))
            }
        }
        // Pinned: a changed generator or schedule would deal other questions.
        let pinned = (0..<5).map { AddOne().question(seed: 42, index: $0, mode: .normal).digits.text }
        #expect(pinned.map(\.count) == [2, 2, 2, 3, 3])
        #expect(pinned == Self.pinnedNormal42)
        // Another seed deals other questions.
        let other = (0..<10).map { AddOne().question(seed: 43, index: $0, mode: .normal).digits.text }
        #expect(other != (0..<10).map { AddOne().question(seed: 42, index: $0, mode: .normal).digits.text })
    }

    static let pinnedNormal42 = ["97", "35", "92", "227", "763"]

    @Test func theScheduleRamps() {
        #expect(AddOneSchedule.normal == [2, 2, 2, 3, 3, 3, 4, 4, 5, 6])
        #expect(AddOneSchedule.normal.count == AddOne().normalQuestionCount)
        #expect(AddOneSchedule.range(mode: .normal, index: 10) == 6...6)
        for mode in Self.modes {
            // Never easier later: both bounds only climb, within 2…6, and a
            // long run reaches the longest numbers.
            for index in 1..<200 {
                let before = AddOneSchedule.range(mode: mode, index: index - 1)
                let now = AddOneSchedule.range(mode: mode, index: index)
                #expect(now.lowerBound >= before.lowerBound && now.upperBound >= before.upperBound, "\(mode) \(index)")
                #expect(AddOneSchedule.lengths.lowerBound <= now.lowerBound && now.upperBound <= AddOneSchedule.lengths.upperBound)
            }
            #expect(AddOneSchedule.range(mode: mode, index: 0).lowerBound == 2)
            #expect(AddOneSchedule.range(mode: mode, index: 199).upperBound == 6)
        }
        // Time Attack starts with three 2-digit numbers.
        #expect((0..<3).allSatisfy { AddOneSchedule.timeAttackRange(index: $0) == 2...2 })
    }

    @Test func drawnLengthsCoverEachWindow() {
        let kind = AddOne()
        for mode in [GameMode.survival, .timeAttack] {
            for index in [0, 4, 6, 12, 20, 40] {
                let seen = Set(Self.seeds.map { kind.question(seed: $0, index: index, mode: mode).difficulty })
                #expect(seen == Set(AddOneSchedule.range(mode: mode, index: index)), "\(mode) \(index)")
            }
        }
    }

    @Test func pointsRewardLengthAndSpeed() {
        #expect(AddOne.points(length: 2, secondsSpent: 0) == 30)
        #expect(AddOne.points(length: 4, secondsSpent: 7) == 53)
        #expect(AddOne.points(length: 6, secondsSpent: 12) == 78)
        #expect(AddOne.points(length: 2, secondsSpent: 45) == 0)
        #expect(AddOne.points(length: 3, secondsSpent: -5) == 45)
        for seconds in 0..<120 {
            for length in AddOneSchedule.lengths {
                let p = AddOne.points(length: length, secondsSpent: seconds)
                #expect(p >= 0)
                if length > 2 { #expect(p >= AddOne.points(length: length - 1, secondsSpent: seconds)) }
                #expect(AddOne.points(length: length, secondsSpent: seconds + 1) <= p)
            }
        }
        let q = AddOneQuestion(digits: DigitString("2139")!)!
        #expect(AddOne().points(for: q, secondsSpent: 5) == 55)
    }

    @Test func handwritingOfAnyLengthIsAnAnswer() {
        let kind = AddOne()
        #expect(kind.answer(handwritten: HandwrittenAnswer(digits: [0, 1, 0]))?.text == "010")
        #expect(kind.answer(handwritten: HandwrittenAnswer(digits: [7]))?.text == "7")
        #expect(kind.answer(handwritten: HandwrittenAnswer(digits: Array(repeating: 1, count: 8)))?.count == 8)
        // Nothing read, or more than the recognizer reads, is no answer.
        #expect(kind.answer(handwritten: HandwrittenAnswer(digits: [])) == nil)
        #expect(kind.answer(handwritten: HandwrittenAnswer(digits: Array(repeating: 1, count: 9))) == nil)
    }

    @Test func digitStringsAreJSONStringsOfOneToEightDigits() throws {
        #expect(try JSONValueEncoder().encode(DigitString("010")!) == .string("010"))
        #expect(try JSONValueDecoder().decode(DigitString.self, from: .string("3240")).text == "3240")
        for bad: JSON in [.string(""), .string("32a0"), .string("123456789"), .string(" 12"), .string("١٢"), .int(3240), .null] {
            #expect(throws: DecodingError.self) { try JSONValueDecoder().decode(DigitString.self, from: bad) }
        }
        #expect(try JSONValueEncoder().encode(AddOnePrompt(AddOneQuestion(digits: DigitString("0213")!)!))
            == .object([("digits", .string("0213"))]))
        #expect(AddOneQuestion(digits: DigitString("1")!) == nil && AddOneQuestion(digits: DigitString("1234567")!) == nil)
    }

    @Test func theCatalogEntry() {
        let info = AddOne().info
        #expect(info.identifier == "addone")
        #expect(info.names == LocalizedName(en: "Add-One Fish", zh: "小鱼加一"))
        #expect(info.modes == GameMode.allCases)
        #expect(info.answerInput == .drawnNumber && info.boardOrder == .higherFirst)
        #expect(info.normalQuestionCount == 10)
        #expect(info.playsWithFish && !MindPadArithmetic().info.playsWithFish)
    }

    @Test func aRaceCountsKeypadAnswersPerRacer() {
        var race = RaceHarness(kind: AddOne(), configuration: RaceConfiguration(mode: .normal))
        race.send(.join("ann", name: name("Ann")))
        race.send(.join("bo", name: name("Bo")))
        race.send(.start(by: "ann"))
        race.fireTimer()
        for index in 0..<10 {
            race.wait(.seconds(2))
            for player: PlayerID in ["ann", "bo"] {
                let delivery = race.lastQuestion(for: player)!
                let right = race.machine.kind.correctAnswer(to: delivery.question)
                // Ann types every third answer; Bo types all, and misses the last.
                let typed = player == "bo" || index % 3 == 0
                let answer = player == "bo" && index == 9 ? DigitString("0")! : right
                race.send(.answer(player, question: delivery.id, answer, keypad: typed))
            }
        }
        let results = Dictionary(uniqueKeysWithValues: race.log.results.map { ($0.player, $0) })
        #expect(results["ann"]?.keypadAnswers == 4 && results["ann"]?.answered == 10)
        #expect(results["bo"]?.keypadAnswers == 10 && results["bo"]?.wrong == 1)
        // 2 s per question: 15 × length − 2, summed over the Normal schedule.
        #expect(results["ann"]?.score == AddOneSchedule.normal.reduce(0) { $0 + 15 * $1 - 2 })
        #expect(results["ann"]?.score == 490)  // docs/rules.md's worked example
        #expect(results["bo"]?.kind == "addone")
    }

    /// Issue 45: the fish swims from the 3rd right answer and jumps from the 6th.
    @Test func theFishReactsToRightAnswers() {
        #expect((0...8).map { FishReaction(correct: $0) } == [.still, .still, .still, .swim, .swim, .swim, .jump, .jump, .jump])
        #expect(FishReaction.allCases.map(\.rawValue) == ["still", "swim", "jump"])
    }
}
