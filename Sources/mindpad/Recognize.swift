import ArgumentParser
import MindPadRecognition

struct Recognize: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Recognize drawings: JSON Lines in on stdin, one JSON line out per drawing.",
        discussion: """
            Input, one drawing per line: {"width": W, "height": H, "strokes": [[[x, y, t_ms], ...], ...]}
            Output, in order: {"digit": d, "confidence": p, "probabilities": [p0, ..., p9], "unsure": u, "choices": [...]}
              (unsure: no digit at all; choices: the digits to offer, likeliest first, when
              the reading is unsure but they are plausible; empty when read surely).
            With --number each line is a number written left to right, split into digits:
              {"number":"3240","digits":[{"digit":3,"confidence":0.99,"box":[x0,y0,x1,y1]},...]}
              (box: where the digit's ink is, in the drawing's coordinates; at most 8 digits;
              a digit offered as a choice has "choices":[1,7], one that is no digit "unsure":true).
            A line that cannot be used gets {"error": "..."} and the next line is read.
            This is the code path the live server uses.
            """)

    @Flag(help: "Read each drawing as a whole number (several digits), not one digit.")
    var number = false

    func run() throws {
        try RecognizeLines.run(
            mode: number ? .number : .digit, input: { readLine(strippingNewline: true) }, output: { print($0) })
    }
}
