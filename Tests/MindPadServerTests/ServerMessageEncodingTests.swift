@testable import MindPadHTTP
@testable import MindPadTransport
import MindPadJSON
@testable import MindPadRecognition
@testable import MindPadRules
import Testing
@testable import MindPadServer

/// Every kind of server message, written straight into bytes
/// (`OutgoingMessage`, `JSONWriter`), pinned byte for byte to the text the
/// protocol documents, and read back by the decoder (`JSON.parse`) to the
/// same text: an encoding that changes shows here before a client sees it.
@Suite struct ServerMessageEncodingTests {
    let ann = try! PlayerName(validating: "Ann")
    let now = RaceInstant(milliseconds: 2_000)
    let q = QuestionID(round: 1, index: 4)

    /// The exact text, the type kept beside it, the LWS_PRE headroom in
    /// front, and a round trip through the decoder and back.
    func pin(_ m: OutgoingMessage, _ text: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        #expect(m.text == text, sourceLocation: sourceLocation)
        let parsed = try JSON.parse(m.text)
        #expect(parsed["type"] == .string(m.type), sourceLocation: sourceLocation)
        #expect(parsed.text == text, sourceLocation: sourceLocation)
        #expect(m.payload.count == text.utf8.count, sourceLocation: sourceLocation)
    }

    var result: PlayerResult {
        PlayerResult(player: "p1", name: ann, kind: "mindpad", mode: .timeAttack, round: 2, seed: 7, score: 20,
                     correct: 2, wrong: 1, duration: RaceDuration(milliseconds: 150_000),
                     scoreReachedAfter: RaceDuration(milliseconds: 90_500), completed: true, seat: 0, keypadAnswers: 1)
    }

    let resultText = #""player_id":"p1","name":"Ann","score":20,"correct":2,"wrong":1,"answered":3,"duration_ms":150000,"#
        + #""score_reached_ms":90500,"completed":true,"keypad_answers":1"#

    var progress: RaceProgress {
        RaceProgress(round: 2, mode: .timeAttack, racers: [
            RacerProgress(player: "p1", name: ann, questionIndex: 3, score: 20, correct: 2, wrong: 1, status: .playing, remaining: nil),
            RacerProgress(player: "p2", name: ann, questionIndex: 0, score: 0, correct: 0, wrong: 0, status: .completed, remaining: 4),
        ])
    }

    let progressText = #""round":2,"mode":"time_attack","racers":[{"player_id":"p1","name":"Ann","question_index":3,"#
        + #""score":20,"correct":2,"wrong":1,"status":"playing"},{"player_id":"p2","name":"Ann","question_index":0,"#
        + #""score":0,"correct":0,"wrong":0,"status":"completed","remaining":4}]"#

    @Test func connectionMessages() throws {
        try pin(ServerMessage.welcome(limits: [("max_points", .int(10_000)), ("unset", nil), ("rate", .double(0.5))]),
                #"{"type":"welcome","protocol":"mindpad.v1","limits":{"max_points":10000,"rate":0.5}}"#)
        try pin(ServerMessage.identified(player: "p1", name: ann, token: "t0k"),
                #"{"type":"identified","player_id":"p1","name":"Ann","token":"t0k","new":true}"#)
        try pin(ServerMessage.identified(player: "p1", name: ann, token: nil, instance: "i2"),
                #"{"type":"identified","player_id":"p1","name":"Ann","new":false,"instance":"i2"}"#)
        try pin(ServerMessage.moved(room: nil, instance: nil), #"{"type":"moved","room":null,"instance":null}"#)
        try pin(ServerMessage.moved(room: "ABCD", instance: "i2"), #"{"type":"moved","room":"ABCD","instance":"i2"}"#)
        let e = ServerMessage.error(ProtocolError(.badJSON, "say \"hi\"\u{202E}\n\u{1}é😀", request: "r1"))
        try pin(e, #"{"type":"error","code":"bad_json","message":"say \"hi\"\u202e\n\u0001é😀","request":"r1"}"#)
        #expect(e.errorCode == .badJSON)
        try pin(ServerMessage.error(ProtocolError(.badJSON, "no")), #"{"type":"error","code":"bad_json","message":"no"}"#)
    }

    @Test func roomMessages() throws {
        let running = RoomSnapshot(
            round: 2, mode: .timeAttack, kind: "mindpad", level: nil,
            phase: .running(startedAt: RaceInstant(milliseconds: 1_000), endsAt: RaceInstant(milliseconds: 5_000)),
            host: "p1", members: [MemberSnapshot(id: "p1", name: ann, role: .racer, isReady: true, isConnected: true, isHost: true)],
            maxPlayers: 8)
        let runningText = #"{"game":"mindpad","round":2,"mode":"time_attack","phase":"running","ends_in_ms":3000,"host":"p1","#
            + #""max_players":8,"members":[{"player_id":"p1","name":"Ann","role":"racer","ready":true,"connected":true,"host":true}]}"#
        let standings = Standings(round: 2, mode: .timeAttack, results: [result])
        try pin(ServerMessage.room(code: "ABCD", you: "p1", snapshot: running, progress: progress, standings: standings,
                                   race: "R1", now: now),
                #"{"type":"room","code":"ABCD","you":"p1","room":"# + runningText + #","race":"R1","progress":{"# + progressText
                    + #"},"standings":{"round":2,"mode":"time_attack","race":"R1","entries":[{"rank":1,"race":"R1","#
                    + resultText + "}]}}")
        let lobby = RoomSnapshot(round: 1, mode: .normal, kind: "kids", level: 3, phase: .lobby, host: nil, members: [],
                                 maxPlayers: 8)
        try pin(ServerMessage.room(code: "ABCD", you: "p1", snapshot: lobby, progress: nil, standings: nil, race: nil, now: now),
                #"{"type":"room","code":"ABCD","you":"p1","room":{"game":"kids","round":1,"mode":"normal","level":3,"#
                    + #""phase":"lobby","host":null,"max_players":8,"members":[]}}"#)
        let counting = RoomSnapshot(round: 1, mode: .normal, kind: "kids", level: nil,
                                    phase: .countdown(startsAt: RaceInstant(milliseconds: 2_750)), host: nil, members: [],
                                    maxPlayers: 8)
        try pin(ServerMessage.roomUpdated(code: "ABCD", snapshot: counting, now: now),
                #"{"type":"room_updated","code":"ABCD","room":{"game":"kids","round":1,"mode":"normal","phase":"countdown","#
                    + #""starts_in_ms":750,"host":null,"max_players":8,"members":[]}}"#)
        for (phase, name) in [(RoomPhase.finished, "finished"), (.disposed, "closed"),
                              (.running(startedAt: now, endsAt: nil), "running")] {
            let s = RoomSnapshot(round: 1, mode: .survival, kind: "k", level: nil, phase: phase, host: nil, members: [], maxPlayers: 2)
            try pin(ServerMessage.roomUpdated(code: "C", snapshot: s, now: now),
                    #"{"type":"room_updated","code":"C","room":{"game":"k","round":1,"mode":"survival","phase":""# + name
                        + #"","host":null,"max_players":2,"members":[]}}"#)
        }
        try pin(ServerMessage.leftRoom(code: "ABCD"), #"{"type":"left_room","code":"ABCD"}"#)
    }

    @Test func raceMessages() throws {
        try pin(ServerMessage.countdown(round: 1, startsAt: RaceInstant(milliseconds: 3_500), now: now),
                #"{"type":"countdown","round":1,"starts_in_ms":1500}"#)
        try pin(ServerMessage.countdown(round: 1, startsAt: RaceInstant(milliseconds: 1_500), now: now),
                #"{"type":"countdown","round":1,"starts_in_ms":0}"#)
        try pin(ServerMessage.raceStarted(round: 1, mode: .normal, race: "R1", endsAt: nil, now: now),
                #"{"type":"race_started","round":1,"mode":"normal","race":"R1"}"#)
        try pin(ServerMessage.raceStarted(round: 3, mode: .timeAttack, race: "R1", endsAt: RaceInstant(milliseconds: 152_000), now: now),
                #"{"type":"race_started","round":3,"mode":"time_attack","race":"R1","ends_in_ms":150000}"#)
        try pin(ServerMessage.question(q, prompt: .object([("a", .int(-3)), ("op", .string("+")), ("x", .array([.null, .bool(false)]))])),
                #"{"type":"question","question":"r1q4","prompt":{"a":-3,"op":"+","x":[null,false]}}"#)
        try pin(ServerMessage.spectating(q, prompt: .string("3 + 4"), racer: "p2"),
                #"{"type":"spectating","round":1,"question_index":4,"prompt":"3 + 4","racer":"p2"}"#)
        try pin(ServerMessage.progress(progress), #"{"type":"progress","# + progressText + "}")
        try pin(ServerMessage.standings(Standings(round: 2, mode: .timeAttack, results: [result]), race: nil),
                #"{"type":"standings","round":2,"mode":"time_attack","entries":[{"rank":1,"# + resultText + "}]}")
    }

    @Test func guessesAndGrades() throws {
        let none = DigitProbabilities(SIMD16(repeating: 0))
        try pin(ServerMessage.guess(question: q, recognition: Recognition(digit: 7, confidence: 0.98765, probabilities: none, unsure: false),
                                    points: 12),
                #"{"type":"guess","question":"r1q4","digit":7,"confidence":0.988,"points":12}"#)
        try pin(ServerMessage.guess(question: q, recognition: Recognition(digit: 7, confidence: 0.2, probabilities: none, unsure: true),
                                    points: 12),
                #"{"type":"guess","question":"r1q4","digit":null,"unsure":true,"confidence":0.2,"points":12}"#)
        let number = NumberReading(digits: [
            DigitReading(digit: 1, confidence: 0.9, box: InkBox(x0: 0, y0: 0, x1: 10.5, y1: 20)),
            DigitReading(digit: 2, confidence: 0.3, box: InkBox(x0: 12, y0: 0, x1: 20, y1: 20), unsure: true),
        ])
        try pin(ServerMessage.guess(question: q, number: number, points: 40),
                #"{"type":"guess","question":"r1q4","number":"1?","confidence":0.3,"digits":[{"digit":1,"confidence":0.9,"#
                    + #""box":[0.0,0.0,10.5,20.0]},{"digit":null,"confidence":0.3,"box":[12.0,0.0,20.0,20.0]}],"points":40}"#)
        // Issue 43: a reading offered as a choice carries it; a number's place is "?" and keeps its likeliest digit.
        try pin(ServerMessage.guess(question: q, recognition: Recognition(digit: 1, confidence: 0.55, probabilities: none, unsure: false,
                                                                          choices: [1, 7]), points: 37),
                #"{"type":"guess","question":"r1q4","digit":1,"choices":[1,7],"confidence":0.55,"points":37}"#)
        let offered = NumberReading(digits: [
            DigitReading(digit: 3, confidence: 0.99, box: InkBox(x0: 0, y0: 0, x1: 10, y1: 20)),
            DigitReading(digit: 1, confidence: 0.55, box: InkBox(x0: 12, y0: 0, x1: 20, y1: 20), choices: [1, 7]),
        ])
        try pin(ServerMessage.guess(question: q, number: offered, points: 40),
                #"{"type":"guess","question":"r1q4","number":"3?","confidence":0.55,"digits":[{"digit":3,"confidence":0.99,"#
                    + #""box":[0.0,0.0,10.0,20.0]},{"digit":1,"confidence":0.55,"box":[12.0,0.0,20.0,20.0],"choices":[1,7]}],"points":40}"#)
        try pin(ServerMessage.graded(question: q, answer: .int(7), expected: .int(7), confidence: 0.98765, correct: true,
                                     points: 10, score: 30, runOver: false),
                #"{"type":"graded","question":"r1q4","answer":7,"confidence":0.988,"correct":true,"expected":7,"points":10,"#
                    + #""score":30,"run_over":false}"#)
        try pin(ServerMessage.graded(question: q, answer: .object([("rows", .int(3))]), expected: nil, confidence: nil,
                                     correct: false, points: 0, score: 30, runOver: true, retry: true),
                #"{"type":"graded","question":"r1q4","answer":{"rows":3},"correct":false,"points":0,"score":30,"#
                    + #""run_over":true,"retry":true}"#)
    }

    @Test func resultMessages() throws {
        func path(reached: RaceDuration?) -> PlayerResult {
            PlayerResult(player: "p1", name: ann, kind: "path", mode: .normal, round: 1, seed: 1, score: 4_500, correct: 1,
                         wrong: 0, duration: RaceDuration(milliseconds: 9_000), scoreReachedAfter: RaceDuration(milliseconds: 8_000),
                         completed: reached != nil, seat: 0,
                         detail: PathRoundResult(rows: 4, columns: 5, goal: GridCell(row: 3, column: 4), steps: 6, bestSteps: 5,
                                                 tries: 2, gridShownAfter: RaceDuration(milliseconds: 1_200),
                                                 goalReachedAfter: reached).detail)
        }
        let head = #""player_id":"p1","name":"Ann","score":4500,"correct":1,"wrong":0,"answered":1,"duration_ms":9000,"#
            + #""score_reached_ms":8000,"#
        try pin(ServerMessage.finished(path(reached: nil), race: nil, answers: [.object([("seq", .int(1))])]),
                #"{"type":"finished","result":{"# + head + #""completed":false,"keypad_answers":0,"path":{"rows":4,"columns":5,"#
                    + #""goal":{"row":3,"column":4},"steps":6,"best_steps":5,"tries":2,"grid_shown_ms":1200,"#
                    + #""goal_reached_ms":null,"rank_value":null},"answers":[{"seq":1}]}}"#)
        try pin(ServerMessage.finished(path(reached: RaceDuration(milliseconds: 7_000)), race: "R9", answers: []),
                #"{"type":"finished","result":{"race":"R9","# + head + #""completed":true,"keypad_answers":0,"path":{"rows":4,"#
                    + #""columns":5,"goal":{"row":3,"column":4},"steps":6,"best_steps":5,"tries":2,"grid_shown_ms":1200,"#
                    + #""goal_reached_ms":7000,"rank_value":1.74},"answers":[]}}"#)
        try pin(ServerMessage.finished(result, race: "R1", answers: []),
                #"{"type":"finished","result":{"race":"R1","# + resultText + #","answers":[]}}"#)
        try pin(ServerMessage.resultSaved(game: "mindpad", round: 2, mode: .timeAttack, personalBest: true, previousBest: nil,
                                          journaled: true),
                #"{"type":"result_saved","round":2,"mode":"time_attack","game":"mindpad","stored":"journal","personal_best":true}"#)
        try pin(ServerMessage.resultSaved(game: "mindpad", round: 2, mode: .normal, personalBest: false, previousBest: 120,
                                          journaled: false),
                #"{"type":"result_saved","round":2,"mode":"normal","game":"mindpad","stored":"database","personal_best":false,"#
                    + #""previous_best":120}"#)
    }

    /// A fan-out shares one payload: the bytes a room's members are sent are
    /// one buffer, and equal messages compare equal whatever lws wrote in the
    /// headroom.
    @Test func aMessageIsEncodedOnceAndShared() {
        let m = ServerMessage.progress(progress)
        let copy = m
        #expect(copy.payload === m.payload)
        #expect(ServerMessage.progress(progress) == m)
        #expect(ServerMessage.progress(progress).payload !== m.payload)
        m.payload.withWritablePayload { start, _ in (start - 1).pointee = 0x81 }
        #expect(ServerMessage.progress(progress) == m)
        #expect(ServerMessage.leftRoom(code: "A") != ServerMessage.leftRoom(code: "B"))
    }
}
