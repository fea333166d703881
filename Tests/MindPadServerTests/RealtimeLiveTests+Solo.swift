import Foundation
import MindPadTestSupport
import Testing

extension RealtimeLiveTests {
    /// Starts a solo room of `mode` for a new player; returns the client.
    static func soloRace(port: Int, name: String, mode: String) throws -> RealtimeClient {
        let client = try RealtimeClient(port: port, label: name)
        try client.identify(name)
        _ = try client.createRoom(mode: mode)
        try client.send(["type": "start"])
        try client.next("race_started")
        return client
    }

    @Test func soloNormalPlaysThroughTenQuestions() throws {
        let (db, server, port) = try Self.startServer()
        defer { db.drop(); _ = server.stop() }
        let cy = try Self.soloRace(port: port, name: "Cy", mode: "normal")
        var total = 0
        for index in 0..<10 {
            let question = try cy.next("question")
            #expect(question["question"] as? String == "r1q\(index)")
            let difficulty = (question["prompt"] as! [String: Any])["difficulty"] as! Int
            let graded = try cy.answer(expectedDigit(question), question: "r1q\(index)")
            #expect(graded["correct"] as? Bool == true)
            #expect(graded["expected"] as? Int == expectedDigit(question))
            #expect(graded["points"] as? Int == 30 * difficulty)  // answered within a second
            total += graded["points"] as! Int
            #expect(graded["score"] as? Int == total)
            #expect(graded["run_over"] as? Bool == (index == 9))
        }
        let finished = try cy.next("finished")["result"] as! [String: Any]
        #expect(finished["score"] as? Int == total)
        #expect(finished["correct"] as? Int == 10)
        #expect(finished["completed"] as? Bool == true)
        let standings = try cy.next("standings")
        let entries = standings["entries"] as! [[String: Any]]
        #expect(entries.count == 1)
        #expect(entries.first?["rank"] as? Int == 1)
        #expect(entries.first?["score"] as? Int == total)
        #expect(try cy.next("result_saved")["personal_best"] as? Bool == true)
    }

    @Test func soloSurvivalEndsOnTheFirstMiss() throws {
        let (db, server, port) = try Self.startServer()
        defer { db.drop(); _ = server.stop() }
        let di = try Self.soloRace(port: port, name: "Di", mode: "survival")
        var score = 0
        for index in 0..<4 {
            let question = try di.next("question")
            let right = expectedDigit(question)
            let graded = try di.answer(index < 3 ? right : (right + 5) % 10, question: "r1q\(index)")
            #expect(graded["correct"] as? Bool == (index < 3))
            #expect(graded["run_over"] as? Bool == (index == 3))
            score = graded["score"] as! Int
        }
        let result = try di.next("finished")["result"] as! [String: Any]
        #expect(result["answered"] as? Int == 4)
        #expect(result["correct"] as? Int == 3)
        #expect(result["score"] as? Int == score)
        #expect(score > 0)
        let entries = try di.next("standings")["entries"] as! [[String: Any]]
        #expect(entries.map { $0["name"] as? String } == ["Di"])
        // Nothing more to answer.
        try di.send(["type": "submit", "question": "r1q4"])
        try di.error("race_over")
    }
}
