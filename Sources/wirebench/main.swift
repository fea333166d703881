// `make bench`, stage "wire": how long decoding one client message takes,
// side by side in one run, for the decoders a server could use:
//   - `ClientMessage.decode` (MindPadJSON, what the server runs),
//   - Foundation's `JSONSerialization` (what it ran before, with the
//     NSNumber/objCType checks), and
//   - Foundation's `JSONDecoder` into Codable structs (the obvious
//     alternative),
// on the messages a racer really sends. Prints JSON: median ns per message
// over several rounds, and the ratio to ClientMessage.decode.
import Foundation
import MindPadJSON
import MindPadServer

let rounds = Int(CommandLine.arguments.dropFirst().first ?? "") ?? 15
let iterations = 20_000

func pointsMessage(_ n: Int) -> String {
    let points = (0..<n).map { i in "[\(100 + i % 57).5,\(200 - i % 31),\(12 * i)]" }.joined(separator: ",")
    return #"{"type":"points","question":"r1q3","stroke":1,"points":[\#(points)]}"#
}

/// Every kind of client message (docs/protocol.md), the racer's hot ones
/// first: `points` (20 a second while drawing) at two sizes, `submit`.
let messages: [(String, String)] = [
    ("points_8", pointsMessage(8)),
    ("points_32", pointsMessage(32)),
    ("submit", #"{"type":"submit","question":"r1q3"}"#),
    ("submit_answer", #"{"type":"submit","question":"r1q3","answer":{"option_index":2}}"#),
    ("clear", #"{"type":"clear","question":"r1q3"}"#),
    ("undo", #"{"type":"undo","question":"r1q3","stroke":4}"#),
    ("identify", #"{"type":"identify","name":"Ann Lee","token":"9a2d57de9a9d4dccd46548732d7bcb840e748be9becaf115f0b4afaf31e9abaa"}"#),
    ("create_room", #"{"type":"create_room","game":"addone","mode":"time_attack","max_players":8,"fish":"3f2b8c1e-6a4d-4e0b-9a57-1c2d3e4f5a6b"}"#),
    ("join_room", #"{"type":"join_room","code":"KBRW"}"#),
    ("leave_room", #"{"type":"leave_room"}"#),
    ("ready", #"{"type":"ready","ready":true}"#),
    ("start", #"{"type":"start"}"#),
    ("rematch", #"{"type":"rematch"}"#),
    ("choose", #"{"type":"choose","question":"r1q3","answer":7}"#),
    ("reading", #"{"type":"reading","learn":false,"forget":true}"#),
    ("host_lesson", #"{"type":"host_lesson","token":"9a2d57de9a9d4dccd46548732d7bcb840e748be9becaf115f0b4afaf31e9abaa","class":"3f2b8c1e-6a4d-4e0b-9a57-1c2d3e4f5a6b","game":"mindpad","mode":"time_attack"}"#),
    ("lesson", #"{"type":"lesson","action":"kick","player":"p12"}"#),
]
// Every kind the server reads is here.
precondition(Set(messages.map { ClientMessageDecoder.decode($0.1).type }) == Set(ClientMessageDecoder.kinds),
             "wirebench: a client message kind is missing")

/// The old path, as the server ran it: JSONSerialization, then fields by hand.
func foundationDecode(_ text: String) -> Int {
    guard let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any],
          let type = object["type"] as? String else { return -1 }
    var count = type.count
    if let points = object["points"] as? [Any] {
        for item in points {
            guard let triple = item as? [Any], triple.count >= 2,
                  let x = triple[0] as? NSNumber, let y = triple[1] as? NSNumber,
                  String(cString: x.objCType) != "c" else { return -1 }
            count += Int(x.doubleValue + y.doubleValue) & 1
        }
    }
    if let question = object["question"] as? String { count += question.count }
    return count
}

struct CodableMessage: Decodable {
    let type: String
    let question: String?
    let stroke: Int?
    let points: [[Double]]?
    let name: String?
    let token: String?
}

let decoder = JSONDecoder()
func codableDecode(_ text: String) -> Int {
    guard let m = try? decoder.decode(CodableMessage.self, from: Data(text.utf8)) else { return -1 }
    return m.type.count + (m.points?.count ?? 0) + (m.question?.count ?? 0)
}

func serverDecode(_ text: String) -> Int {
    let (type, points) = ClientMessageDecoder.decode(text)
    return type.hasPrefix("bad_") || type == "unknown_type" ? -1 : type.count + points
}

func nanosPerCall(_ body: (String) -> Int, _ text: String) -> Double {
    var sink = 0
    let start = ContinuousClock.now
    for _ in 0..<iterations { sink &+= body(text) }
    let elapsed = ContinuousClock.now - start
    precondition(sink != Int.min)
    return Double(elapsed.components.seconds) * 1e9 / Double(iterations)
        + Double(elapsed.components.attoseconds) / 1e9 / Double(iterations)
}

let decoders: [(String, (String) -> Int)] = [
    ("mindpad_json", serverDecode), ("json_serialization", foundationDecode), ("json_decoder", codableDecode),
]
// Every decoder reads every message (a wrong one would make the race meaningless).
for (_, text) in messages {
    for (name, decode) in decoders { precondition(decode(text) >= 0, "\(name) failed on \(text)") }
}
var report: [String: Any] = ["iterations_per_round": iterations, "rounds": rounds]
var table: [[String: Any]] = []
for (label, text) in messages {
    var samples: [String: [Double]] = [:]
    for _ in 0..<rounds {
        // Interleaved, so drift on a noisy machine hits every decoder alike.
        for (name, decode) in decoders { samples[name, default: []].append(nanosPerCall(decode, text)) }
    }
    func median(_ xs: [Double]) -> Double { xs.sorted()[xs.count / 2] }
    let ours = median(samples["mindpad_json"]!)
    var row: [String: Any] = ["message": label, "bytes": text.utf8.count]
    for (name, _) in decoders {
        let m = median(samples[name]!)
        row["\(name)_ns"] = (m * 10).rounded() / 10
        row["\(name)_ratio"] = ((m / ours) * 100).rounded() / 100
    }
    table.append(row)
}
report["messages"] = table
let data = try JSONSerialization.data(withJSONObject: report, options: [.sortedKeys, .prettyPrinted])
print(String(decoding: data, as: UTF8.self))
