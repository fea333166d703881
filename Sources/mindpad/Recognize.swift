import ArgumentParser
import MindPadRecognition

struct Recognize: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Recognize drawings: JSON Lines in on stdin, one JSON line out per drawing.",
        discussion: """
            Input, one drawing per line: {"width": W, "height": H, "strokes": [[[x, y, t_ms], ...], ...]}
            Output, in order: {"digit": d, "confidence": p, "probabilities": [p0, ..., p9]}
            A line that cannot be used gets {"error": "..."} and the next line is read.
            This is the code path the live server uses.
            """)

    func run() throws {
        try RecognizeLines.run(input: { readLine(strippingNewline: true) }, output: { print($0) })
    }
}
