/// Segmentation by stroke order. People write a number left to right, one digit
/// after the other, so a group's strokes in the order written fall into runs
/// of 1–3 strokes, one run per digit: touching digits drawn with separate
/// strokes part between two runs even where their ink overlaps and no cut
/// through it is clean. Choosing the runs is a dynamic programme over cut
/// points in the stroke sequence, each run scored as one digit (the network's
/// log-probability, the width and height priors of the geometric cuts) and
/// each pair of neighbouring runs by whether the later one lies to the right
/// of the earlier one in every band they share (a 4's downstroke or a 7's
/// crossbar does not; the next digit does). A run as wide as two digits holds
/// a stroke that spans two (the pen ran on): `read` cuts it geometrically.
extension NumberSegmenter {
    /// One candidate run: strokes order[i..<i + length], read as one digit.
    private struct Run {
        var part: InkPart
        var reading: Recognition
        var score: Double
        var x0 = 0.0, x1 = 0.0
    }

    /// The group read as runs of consecutive strokes, when that is at least two
    /// digits and scores better than the group read whole; nil otherwise.
    mutating func readByOrder(_ group: Group, whole: Recognition, wholeWidth: Double)
        -> [(Recognition, InkPart)]?
    {
        var order: [Int] = []
        for s in 0..<min(drawing.strokes.count, 64) where group.strokes & (1 << UInt64(s)) != 0 && slot[s] >= 0 {
            order.append(s)
        }
        let m = order.count
        let longest = tuning.runStrokes
        let room = Recognizer.maxNumberDigits - digits.count
        guard m >= 2, room >= 2 else { return nil }
        // runs[i * longest + (length - 1)], read lazily.
        var runs = [Run?](repeating: nil, count: m * longest)
        func run(_ i: Int, _ length: Int) -> Run? {
            let key = i * longest + length - 1
            if let r = runs[key] { return r }
            var mask: UInt64 = 0
            for s in order[i..<(i + length)] { mask |= 1 << UInt64(s) }
            let part = InkPart(strokes: mask, shear: 0, band: -Double.infinity...Double.infinity)
            guard let box = part.box(in: drawing) else { return nil }
            let r = recognize(part)
            let tall = (box.y1 - box.y0) / height
            let wide = part.width(in: drawing, box: box, window: height / 3)
            let score = Self.log(r.confidence) - tuning.pieceHeightCost * max(0, tuning.pieceHeight - tall)
                - widthCost(wide, digit: r.digit)
            let made = Run(part: part, reading: r, score: score, x0: box.x0, x1: box.x1)
            runs[key] = made
            return made
        }
        // best[j * longest + (length - 1)]: the best score of order[0..<j] with
        // its last run `length` strokes long, and how many runs.
        var best = [Double](repeating: -.infinity, count: (m + 1) * longest)
        var count = [Int](repeating: 0, count: (m + 1) * longest)
        var back = [Int](repeating: 0, count: (m + 1) * longest)
        for j in 1...m {
            for length in 1...min(longest, j) {
                let i = j - length
                guard let r = run(i, length) else { continue }
                let key = j * longest + length - 1
                if i == 0 {
                    best[key] = r.score
                    count[key] = 1
                    continue
                }
                for previous in 1...min(longest, i) {
                    let from = i * longest + previous - 1
                    guard best[from] > -.infinity, count[from] < room, let p = run(i - previous, previous) else {
                        continue
                    }
                    let s = best[from] + r.score - orderCost(after: order[(i - previous)..<i], order[i..<j], p, r)
                    if s > best[key] { best[key] = s; count[key] = count[from] + 1; back[key] = previous }
                }
            }
        }
        var end = -1
        for length in 1...min(longest, m) where best[m * longest + length - 1] > -.infinity {
            let key = m * longest + length - 1
            if end < 0 || best[key] > best[m * longest + end - 1] { end = length }
        }
        guard end > 0, count[m * longest + end - 1] >= 2 else { return nil }
        let wholeScore = Self.log(whole.confidence) - widthCost(wholeWidth, digit: whole.digit)
        guard best[m * longest + end - 1] > wholeScore + tuning.orderMargin else { return nil }
        var out: [(Recognition, InkPart)] = []
        var j = m, length = end
        while j > 0 {
            let r = run(j - length, length)!
            out.append((r.reading, r.part))
            let previous = back[j * longest + length - 1]
            j -= length
            length = previous
        }
        return out.reversed()
    }

    /// What it costs for run `b` to follow run `a` as the next digit: in every
    /// band where both have ink, b's left and right edges should be right of
    /// a's (by `orderSlack` heights); per height short, `orderCost`. Runs that
    /// share no band: b's centre right of a's.
    private func orderCost(after a: ArraySlice<Int>, _ b: ArraySlice<Int>, _ ra: Run, _ rb: Run) -> Double {
        let bands = Self.bands
        var short = 0.0
        var shared = false
        for band in 0..<bands {
            var la = Double.infinity, rA = -Double.infinity, lb = Double.infinity, rB = -Double.infinity
            for s in a {
                la = min(la, profileLeft[slot[s] * bands + band]); rA = max(rA, profileRight[slot[s] * bands + band])
            }
            for s in b {
                lb = min(lb, profileLeft[slot[s] * bands + band]); rB = max(rB, profileRight[slot[s] * bands + band])
            }
            guard la <= rA, lb <= rB else { continue }
            shared = true
            let slack = tuning.orderSlack * height
            short = max(short, la + slack - lb, rA + slack - rB)
        }
        if !shared { short = max(0, (ra.x0 + ra.x1) / 2 - (rb.x0 + rb.x1) / 2) }
        return tuning.orderCost * max(0, short) / height
    }
}
