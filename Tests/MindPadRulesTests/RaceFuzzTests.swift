import Testing

@testable import MindPadRules

/// Random event storms against the machine: whatever arrives, in whatever
/// order, its invariants hold and it never traps.
@Suite struct RaceFuzzTests {
    @Test(arguments: GameMode.allCases)
    func invariantsHoldUnderRandomEvents(mode: GameMode) {
        let ids: [PlayerID] = ["a", "b", "c", "d", "e"]
        var finishedRaces = 0
        var gradedAnswers = 0
        var refusalsAgreed = 0
        for seed in 0..<300 as Range<UInt64> {
            var random = SeededGenerator(seed: seed)
            var race = RaceHarness(
                RaceConfiguration(
                    mode: mode, maxPlayers: 3, maxSpectators: 1, requireReady: random.bool(),
                    countdown: .seconds(3), timeAttackLength: .seconds(20), reconnectGrace: .seconds(5)
                ),
                seed: seed
            )
            var storedPerRound: [Int: [PlayerID]] = [:]
            for _ in 0..<150 {
                race.wait(.milliseconds(Int64(random.int(in: 0...1500))))
                let id = ids[random.int(in: 0...(ids.count - 1))]
                let event: RaceEvent<MindPadArithmetic>
                switch random.int(in: 0...11) {
                case 0, 1: event = .join(id, name: name(id.rawValue.uppercased()))
                case 2: event = .leave(id)
                case 3: event = .disconnect(id)
                case 4: event = .reconnect(id)
                case 5: event = .setReady(id, random.bool())
                case 6: event = .start(by: race.machine.hostID ?? id)
                case 7: event = .rematch(by: race.machine.hostID ?? id, seed: random.next())
                case 8: event = .tick
                default:
                    let delivery = race.lastQuestion(for: id)
                    let question = delivery?.id ?? QuestionID(round: 1, index: 0)
                    event = .answer(id, question: question, Digit(random.int(in: 0...9))!)
                }
                if case .disposed = race.machine.phase { break }
                // The pure query agrees with what handling the answer does,
                // deadlines due by now included, and changes nothing.
                var predicted: RaceError?? = nil
                if case .answer(let player, let question, _, _, _) = event {
                    let before = race.machine.snapshot
                    predicted = .some(race.machine.refusal(ofAnswerBy: player, to: question, at: race.now))
                    #expect(race.machine.snapshot == before)
                }
                let effects = race.send(event)
                if case .some(let refusal) = predicted, case .answer(let player, _, _, _, _) = event {
                    let rejected = effects.compactMap { e -> RaceError? in
                        if case .rejected(player, let error) = e { return error }
                        return nil
                    }
                    #expect(rejected == (refusal.map { [$0] } ?? []))
                    if refusal == nil { refusalsAgreed += 1 }
                }
                finishedRaces += effects.standings.count
                gradedAnswers += effects.outcomes.count
                for result in effects.results { storedPerRound[result.round, default: []].append(result.player) }
                Self.checkInvariants(race.machine)
            }
            // At most one stored result per racer per round.
            for (_, players) in storedPerRound { #expect(Set(players).count == players.count) }
        }
        // The storm really reaches races, answers and finishes.
        #expect(finishedRaces > 100)
        #expect(gradedAnswers > 300)
        #expect(refusalsAgreed == gradedAnswers)
    }

    static func checkInvariants(_ machine: RaceStateMachine<MindPadArithmetic>) {
        let snapshot = machine.snapshot
        if case .disposed = snapshot.phase {
            #expect(snapshot.members.isEmpty && snapshot.host == nil)
            return
        }
        if snapshot.members.isEmpty {
            // Only a fresh room that nobody has joined yet is empty.
            #expect(snapshot.phase == .lobby && snapshot.host == nil && snapshot.round == 1)
            return
        }
        #expect(snapshot.members.contains { $0.id == snapshot.host })
        #expect(snapshot.members.count(where: \.isHost) == 1)
        #expect(snapshot.members.count { $0.role == .racer } <= 3)
        #expect(snapshot.members.count { $0.role == .spectator } <= 1)
        #expect(Set(snapshot.members.map(\.name.key)).count == snapshot.members.count)
        if let tick = machine.nextTick { #expect(tick >= machine.clock) }
        if let progress = machine.progress {
            #expect(progress.racers.contains { $0.status == .playing })
        }
    }
}
