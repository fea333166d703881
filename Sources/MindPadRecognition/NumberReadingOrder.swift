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
    }

    /// Where to split one stroke in two pieces: points 0..<end and start..<count
    /// (the points between, the pen's way from one digit to the next, dropped).
    struct StrokeSplit: Equatable { var stroke: Int; var end: Int; var start: Int }

    /// The group read as runs of consecutive strokes, when that is at least two
    /// digits and scores better than the group read whole (with that score);
    /// nil otherwise. Each of `splits` cuts a stroke into pieces (a stroke may
    /// be cut more than once: the pen ran on through three digits or more;
    /// several strokes may be cut), each piece an entry of the order that may
    /// join its neighbours' runs (the pen ran on). A run holding some pieces
    /// of a stroke reads the points from its first piece's start to its last
    /// piece's end (the pen's way between pieces of one run is the digit's);
    /// a run holding some but not all pieces of two strokes is not read (one
    /// `InkPart` holds one range of points).
    /// `beat`: a score the reading must also exceed (a caller's best so far).
    /// A reading with split strokes must beat the whole by `strokeSplitMargin`,
    /// or by `apartSplitMargin` when the pieces at every split stand apart as
    /// two digits would (`apart` in the result; `standApart`: both tall, the
    /// later right of the earlier in every band). `apartOnly`: only splits
    /// whose pieces stand apart by themselves are read at all (the exits).
    /// `leftToRight`: the strokes in the order of their left edges instead
    /// of the order written (nil when that is the same order).
    mutating func readByOrder(
        _ group: Group, whole: Recognition, wholeWidth: Double, splits: [StrokeSplit] = [], beat: Double = -.infinity,
        apartOnly: Bool = false, leftToRight: Bool = false
    ) -> (runs: [(Recognition, InkPart)], score: Double, apart: Bool)? {
        // The order: (stroke, piece: 0 whole, 1… the pieces, its points),
        // and each entry's row in the profiles (pieces' rows are added past
        // the strokes').
        var order: [Int] = []
        var piece: [Int] = []
        var ranges: [Range<Int>] = []
        var pieces: [Int] = []  // how many pieces the entry's stroke is in
        var row: [Int] = []
        guard !outOfWork else { return nil }
        let bands = Self.bands
        let strokeRows = profileLeft.count / bands
        defer {
            profileLeft.removeSubrange((strokeRows * bands)...)
            profileRight.removeSubrange((strokeRows * bands)...)
        }
        var sequence = (0..<min(drawing.strokes.count, 64)).filter { group.strokes & (1 << UInt64($0)) != 0 && slot[$0] >= 0 }
        if leftToRight {
            let lefts = sequence.map { leftEdge(of: $0) }
            let sorted = sequence.indices.sorted { lefts[$0] < lefts[$1] || (lefts[$0] == lefts[$1] && $0 < $1) }
            guard sorted != Array(sequence.indices) else { return nil }
            sequence = sorted.map { sequence[$0] }
        }
        for s in sequence {
            let cuts = splits.filter { $0.stroke == s }.sorted { $0.end < $1.end }
            guard !cuts.isEmpty else {
                order.append(s); piece.append(0); ranges.append(0..<0); pieces.append(1); row.append(slot[s])
                continue
            }
            let points = drawing.strokes[s]
            var from = 0
            var own: [Range<Int>] = []
            for cut in cuts {
                // Each piece keeps at least one segment of its own.
                guard cut.end > from, cut.start >= cut.end - 1, cut.start < points.count else { return nil }
                own.append(from..<cut.end)
                from = cut.start
            }
            own.append(from..<points.count)
            let rows = profileLeft.count / bands
            profileLeft += [Double](repeating: .infinity, count: own.count * bands)
            profileRight += [Double](repeating: -.infinity, count: own.count * bands)
            for (k, range) in own.enumerated() {
                Self.profile(points[range], row: rows + k, top: profileTop, band: bandHeight,
                             left: &profileLeft, right: &profileRight)
                order.append(s); piece.append(k + 1); ranges.append(range); pieces.append(own.count)
                row.append(rows + k)
            }
        }
        let m = order.count
        let longest = tuning.runStrokes
        // Each run's box visits its strokes' points; the order costs compare
        // every run with every run before it, band by band.
        charge(longest * (longest + 1) / 2 * points(of: group.strokes) + 2 * m * longest * longest * longest * bands)
        let room = Recognizer.maxNumberDigits - digits.count
        guard m >= 2, room >= 2 else { return nil }
        // runs[i * longest + (length - 1)], read lazily.
        var runs = [Run?](repeating: nil, count: m * longest)
        // The part a run reads (strokes order[i..<i + length]); nil when it
        // holds part of two cut strokes.
        func runPart(_ i: Int, _ length: Int) -> InkPart? {
            var part = InkPart(strokes: 0, shear: 0, band: -Double.infinity...Double.infinity)
            var k = i
            while k < i + length {
                part.strokes |= 1 << UInt64(order[k])
                guard piece[k] != 0 else { k += 1; continue }
                // This stroke's pieces in the run (consecutive in the order).
                var last = k
                while last + 1 < i + length && order[last + 1] == order[k] { last += 1 }
                if last - k + 1 < pieces[k] {
                    guard part.piece < 0 else { return nil }
                    part.piece = order[k]
                    part.points = ranges[k].lowerBound..<ranges[last].upperBound
                }
                k = last + 1
            }
            return part
        }
        // Each run's part and box (geometry only), for the order costs and the bound below.
        var boxes = [InkBox?](repeating: nil, count: m * longest)
        var parts = [InkPart?](repeating: nil, count: m * longest)
        for i in 0..<m {
            for length in 1...min(longest, m - i) {
                let key = i * longest + length - 1
                parts[key] = runPart(i, length)
                boxes[key] = parts[key]?.box(in: drawing)
            }
        }
        // The most a run can score before it is read: its height cost (a
        // run lower than `runPieceHeight`, a 5's bar, is no digit of its own).
        let lift = boxes.map { box in
            box.map { -tuning.pieceHeightCost * max(0, tuning.runPieceHeight - ($0.y1 - $0.y0) / height) } ?? 0
        }
        func run(_ i: Int, _ length: Int) -> Run? {
            let key = i * longest + length - 1
            if let r = runs[key] { return r }
            guard let part = parts[key], let box = boxes[key], !outOfWork else { return nil }
            let r = readings[part] ?? recognize(part)
            readings[part] = r
            let tall = (box.y1 - box.y0) / height
            let wide = width(of: part, box: box)
            var score = Self.log(r.confidence) - tuning.pieceHeightCost * max(0, tuning.runPieceHeight - tall)
                - widthCost(wide, digit: r.digit)
            if tuning.innerOrderCost > 0 && length >= 2 {
                // A run whose strokes part in two that stand as two digits
                // would: two digits read as one (a 1 touching the 0 before
                // it, read with it as a sure 0).
                for k in (i + 1)..<(i + length) {
                    guard let a = boxes[i * longest + k - i - 1], let b = boxes[k * longest + i + length - k - 1],
                        standApart(row[i..<k], row[k..<(i + length)], a, b)
                    else { continue }
                    score -= tuning.innerOrderCost
                    break
                }
            }
            let made = Run(part: part, reading: r, score: score)
            runs[key] = made
            return made
        }
        // A reading by runs wins only above `floor`. Every run scores ≤ 0 (a
        // log-probability less its priors), so a reading scores at most minus
        // its order costs: when every way to cut the order into two runs or
        // more costs at least −floor in order alone, none can win, and no run
        // needs reading. Order costs are geometry (row profiles, boxes): a
        // digit drawn in strokes that cross (a 4, a 5's bar) is settled here
        // without the network, and the result is the same as reading them all.
        // Consecutive pieces of a split stroke: entries e and e + 1.
        let seams = (0..<max(m - 1, 0)).filter { order[$0] == order[$0 + 1] && piece[$0] != 0 }
        if apartOnly {
            for e in seams {
                guard let a = boxes[e * longest], let b = boxes[(e + 1) * longest],
                    standApart(row[e...e], row[(e + 1)...(e + 1)], a, b)
                else { return nil }
            }
        }
        let splitMargin = splits.isEmpty ? 0 : tuning.strokeSplitMargin
        let apartMargin = splits.isEmpty ? 0 : min(tuning.apartSplitMargin, tuning.strokeSplitMargin)
        let wholeScore = Self.log(whole.confidence) - widthCost(wholeWidth, digit: whole.digit)
        let floor = max(wholeScore + tuning.orderMargin + apartMargin, beat)
        guard cheapestOrder(m: m, longest: longest, row: row, boxes: boxes) < -floor else { return nil }
        // best[j * longest + (length - 1)]: the best score of order[0..<j] with
        // its last run `length` strokes long, and how many runs.
        var best = [Double](repeating: -.infinity, count: (m + 1) * longest)
        var count = [Int](repeating: 0, count: (m + 1) * longest)
        var back = [Int](repeating: 0, count: (m + 1) * longest)
        var before = [Double](repeating: -.infinity, count: longest)
        for j in 1...m {
            for length in 1...min(longest, j) {
                let i = j - length
                let key = j * longest + length - 1
                if i == 0 {
                    // A first run is followed by another: at best by the one
                    // with the least height and order cost.
                    if j < m, let a = boxes[length - 1] {
                        var next = -Double.infinity
                        for following in 1...min(longest, m - j) {
                            guard let b = boxes[j * longest + following - 1] else { continue }
                            next = max(next, lift[j * longest + following - 1]
                                - orderCost(after: row[0..<j], row[j..<(j + following)], a, b))
                        }
                        guard lift[length - 1] + next > floor else { continue }
                    }
                    guard let r = run(i, length) else { continue }
                    best[key] = r.score
                    count[key] = 1
                    continue
                }
                guard let b = boxes[i * longest + length - 1] else { continue }
                // Each way here before reading this run: the best before it less
                // the order cost. A run scores at most its height cost (`lift`,
                // ≤ 0), so when none of them is above `floor` with it no reading
                // through this run can win: it is not read (the winning reading
                // is the same as reading every run).
                for k in before.indices { before[k] = -.infinity }
                var open = false
                for previous in 1...min(longest, i) {
                    let from = i * longest + previous - 1
                    guard best[from] > -.infinity, count[from] < room,
                        let a = boxes[(i - previous) * longest + previous - 1]
                    else { continue }
                    before[previous - 1] = best[from] - orderCost(after: row[(i - previous)..<i], row[i..<j], a, b)
                    open = open || before[previous - 1] + lift[i * longest + length - 1] > floor
                }
                guard open, let r = run(i, length) else { continue }
                for previous in 1...min(longest, i) where before[previous - 1] > -.infinity {
                    let s = before[previous - 1] + r.score
                    if s > best[key] { best[key] = s; count[key] = count[i * longest + previous - 1] + 1; back[key] = previous }
                }
            }
        }
        var end = -1
        for length in 1...min(longest, m) where best[m * longest + length - 1] > -.infinity {
            let key = m * longest + length - 1
            if end < 0 || best[key] > best[m * longest + end - 1] { end = length }
        }
        // A reading the work ran out in is not finished: not used.
        guard end > 0, count[m * longest + end - 1] >= 2, !outOfWork else { return nil }
        let score = best[m * longest + end - 1]
        guard score > wholeScore + tuning.orderMargin + apartMargin else { return nil }
        var out: [(Recognition, InkPart)] = []
        var starts: [Int] = []  // each run's first entry
        var j = m, length = end
        while j > 0 {
            let r = run(j - length, length)!
            out.append((r.reading, r.part))
            starts.append(j - length)
            let previous = back[j * longest + length - 1]
            j -= length
            length = previous
        }
        out.reverse()
        starts.reverse()
        // Every seam between a split stroke's pieces falls between two runs
        // read surely (`apartConfidence`), and the two pieces stand apart by
        // themselves (a 4's first stroke cut at its corner does not: its bar
        // is low).
        let apart = !seams.isEmpty && seams.allSatisfy { e in
            guard let k = starts.firstIndex(of: e + 1), k > 0, let a = boxes[e * longest],
                let b = boxes[(e + 1) * longest],
                min(out[k - 1].0.confidence, out[k].0.confidence) >= tuning.apartConfidence
            else { return false }
            return standApart(row[e...e], row[(e + 1)...(e + 1)], a, b)
        }
        guard apart || score > wholeScore + tuning.orderMargin + splitMargin else { return nil }
        return (out, score, apart)
    }

    /// The group read by runs of strokes (`readByOrder`), and also with each
    /// stroke as wide as a run-on one split in two where one of the cheapest
    /// cuts into two (`cuts`) crosses it: the best-scoring reading. Then with
    /// two splits at once (a stroke through three digits, or two strokes that
    /// each ran on): each of a few seeds (the single split that won, the
    /// longest straight stretches) with every other split place.
    /// `apartOnly` (the exits, where the group read whole already beat its
    /// runs): only single splits whose pieces stand apart.
    mutating func readByOrder(
        _ group: Group, whole: Recognition, wholeWidth: Double, runOn splits: [Split], apartOnly: Bool = false
    ) -> [(Recognition, InkPart)]? {
        readings.removeAll(keepingCapacity: true)
        // The run of all the group's strokes is the group read whole: no need to read it again.
        readings[InkPart(strokes: group.strokes, shear: 0, band: -Double.infinity...Double.infinity)] = whole
        var best: (runs: [(Recognition, InkPart)], score: Double)?
        if !apartOnly, let h = readByEitherOrder(group, whole: whole, wholeWidth: wholeWidth) { best = (h.runs, h.score) }
        guard tuning.strokeSplits > 0 else { return best?.runs }
        var all: [StrokeSplit] = []
        var seeds: [(length: Double, cut: StrokeSplit)] = []
        var won: [StrokeSplit] = []
        var wide = 0, widest = 0.0
        // A split reading must beat the reading without splits by the margin,
        // and one with other splits by `splitOverSplit` (the same place with
        // the pen's way dropped instead of cut through is the same evidence).
        let unsplit = best?.score ?? -.infinity
        // A reading better by the margin than the best so far, without a piece
        // still as wide as two digits (it runs on again: left to the cuts).
        // Pieces standing apart as two digits would beat it by `apartSplitMargin`.
        func consider(_ cuts: [StrokeSplit]) {
            guard !outOfWork else { return }
            func beat(_ margin: Double) -> Double {
                won.isEmpty ? unsplit + margin : max(unsplit + margin, best!.score + tuning.splitOverSplit)
            }
            let low = beat(min(tuning.apartSplitMargin, tuning.strokeSplitMargin))
            let cost = throughCost(cuts)
            if let h = readByOrder(group, whole: whole, wholeWidth: wholeWidth, splits: cuts, beat: low + cost,
                                   apartOnly: apartOnly),
                h.score - cost > (h.apart ? low : beat(tuning.strokeSplitMargin)),
                !h.runs.contains(where: { run in
                    run.1.piece >= 0 && run.1.box(in: drawing).map {
                        width(of: run.1, box: $0) > tuning.pieceWidth * height
                    } ?? false
                })
            {
                best = (h.runs, h.score - cost)
                won = cuts
            }
        }
        for s in 0..<min(drawing.strokes.count, 64) where group.strokes & (1 << UInt64(s)) != 0 && slot[s] >= 0 {
            guard width(of: 1 << UInt64(s)) > tuning.strokeSplitWidth * height else { continue }
            let points = drawing.strokes[s]
            var tried = Set<Int>()  // points where a cut crossed the stroke
            var candidates: [StrokeSplit] = []
            for split in splits.prefix(tuning.strokeSplits) where !outOfWork {
                // Where the cut crosses the stroke: split there, and also at the
                // ends of the straight stretch it crosses (the pen's way across).
                let c = split.at[0]
                charge(points.count)
                for i in 1..<max(points.count, 1) where !tried.contains(i) {
                    let ua = points[i - 1].x + split.shear * points[i - 1].y, ub = points[i].x + split.shear * points[i].y
                    guard (ua < c) != (ub < c) else { continue }
                    // A scribble crosses a cut again and again: each place costs.
                    charge(tried.count + candidates.count)
                    guard !outOfWork else { break }
                    tried.insert(i)
                    let (end, start) = straight(points, around: i)
                    for cut in [StrokeSplit(stroke: s, end: i, start: i), StrokeSplit(stroke: s, end: end, start: start)]
                    where !candidates.contains(cut) {
                        candidates.append(cut)
                    }
                }
            }
            // The pen's way from one digit to the next need not cross the
            // cheapest cuts (a 9's stem running up into a 3's top lies at the
            // 9's edge): the stroke's longest straight stretches inside it are
            // also tried dropped.
            charge(points.count)
            let stretches = stretches(s, points)
            for cut in stretches.prefix(tuning.stretchSplits) where !candidates.contains(cut) {
                candidates.append(cut)
            }
            for cut in stretches.prefix(tuning.multiSplitSeeds) {
                let a = points[cut.end - 1], b = points[cut.start]
                seeds.append((((b.x - a.x) * (b.x - a.x) + (b.y - a.y) * (b.y - a.y)).squareRoot(), cut))
            }
            for cut in candidates { consider([cut]) }
            guard !apartOnly else { continue }
            all += candidates
            wide += 1
            widest = max(widest, width(of: 1 << UInt64(s)))
        }
        // Two splits only where they can be: two strokes that may each have
        // run on, or one as wide as three digits.
        guard tuning.multiSplitSeeds > 0, all.count >= 2, wide >= 2 || widest > tuning.multiSplitWidth * height else {
            return best?.runs
        }
        // Two splits: the pieces of one stroke must not overlap.
        var firsts = won.count == 1 ? won : []
        for seed in seeds.sorted(by: { $0.length > $1.length }).prefix(tuning.multiSplitSeeds)
        where !firsts.contains(seed.cut) {
            firsts.append(seed.cut)
        }
        var pairs: [[StrokeSplit]] = []
        for a in firsts {
            for b in all where b != a {
                guard a.stroke != b.stroke || b.end > a.start || a.end > b.start else { continue }
                let pair = a.stroke < b.stroke || (a.stroke == b.stroke && a.end < b.end) ? [a, b] : [b, a]
                charge(pairs.count)
                guard !outOfWork else { break }
                guard !pairs.contains(pair) else { continue }
                pairs.append(pair)
                consider(pair)
            }
        }
        // Three splits: a stroke through four digits, or through three with
        // another that ran on. From the two that won, with every other place.
        if tuning.thirdSplit, won.count == 2 {
            let two = won
            for c in all where !two.contains(c) {
                guard two.allSatisfy({ $0.stroke != c.stroke || c.end > $0.start || $0.end > c.start }) else { continue }
                consider((two + [c]).sorted { ($0.stroke, $0.end) < ($1.stroke, $1.end) })
            }
        }
        return best?.runs
    }

    /// The group read by runs of whole strokes (`readByOrder` without
    /// splits) in the order written and, unless `leftToRightMargin` is
    /// infinite, left to right: the reading left to right when it scores
    /// better by that margin, else the one in the order written.
    mutating func readByEitherOrder(
        _ group: Group, whole: Recognition, wholeWidth: Double, beat: Double = -.infinity
    ) -> (runs: [(Recognition, InkPart)], score: Double, apart: Bool)? {
        let written = readByOrder(group, whole: whole, wholeWidth: wholeWidth, beat: beat)
        guard tuning.leftToRightMargin < .infinity,
            let sorted = readByOrder(group, whole: whole, wholeWidth: wholeWidth, beat: beat, leftToRight: true),
            sorted.score > (written?.score ?? -.infinity) + tuning.leftToRightMargin
        else { return written }
        return sorted
    }

    /// A stroke's leftmost x (its row profile's).
    func leftEdge(of s: Int) -> Double {
        let bands = Self.bands
        var left = Double.infinity
        for b in 0..<bands { left = min(left, profileLeft[slot[s] * bands + b]) }
        return left
    }

    /// Whether one of two parts hangs beside the other, not standing on the
    /// line: its foot more than `hangDrop` heights above the other's, its top
    /// no lower than `hangTop` below the other's, and itself lower than
    /// `hangShare` of a digit (a 9's loop beside its stem, wherever the stem
    /// starts). Digits of a line share a baseline, small ones too; a whole
    /// digit written high is not a part (`hangShare`).
    func hangs(_ a: ClosedRange<Double>, _ b: ClosedRange<Double>) -> Bool {
        guard tuning.hangCost > 0 else { return false }
        let (upper, other) = a.upperBound < b.upperBound ? (a, b) : (b, a)
        return other.upperBound - upper.upperBound > tuning.hangDrop * height
            && upper.lowerBound - other.lowerBound < tuning.hangTop * height
            && upper.upperBound - upper.lowerBound < tuning.hangShare * height
    }

    /// What splitting strokes at `cuts` costs beyond reading the pieces: a cut
    /// through the middle of a straight stretch at least `stretchLength`
    /// heights long (the pen's way from one digit to the next) leaves half of
    /// that way in each digit, ink neither digit has; the same place with the
    /// stretch dropped is tried too, and this is what it must lose by for
    /// the cut through to win (`throughCost` per such cut).
    func throughCost(_ cuts: [StrokeSplit]) -> Double {
        guard tuning.throughCost > 0 else { return 0 }
        var cost = 0.0
        for cut in cuts where cut.end == cut.start {
            let points = drawing.strokes[cut.stroke]
            guard cut.end > 0, cut.end < points.count else { continue }
            let (end, start) = straight(points, around: cut.end)
            let a = points[end - 1], b = points[start]
            let length = ((b.x - a.x) * (b.x - a.x) + (b.y - a.y) * (b.y - a.y)).squareRoot()
            if length >= tuning.stretchLength * height { cost += tuning.throughCost }
        }
        return cost
    }

    /// The least total order cost (`orderCost`) of cutting `m` strokes of the
    /// order into two runs or more of at most `longest` strokes: geometry
    /// only, no reading. `boxes[i * longest + length - 1]` is the box of the run of
    /// strokes i..<i + length (nil: not a run).
    private func cheapestOrder(m: Int, longest: Int, row: [Int], boxes: [InkBox?]) -> Double {
        // cost[j * longest + (length - 1)]: the least order cost of order[0..<j]
        // in two runs or more, the last `length` strokes long.
        var cost = [Double](repeating: .infinity, count: (m + 1) * longest)
        for j in 2...m {
            for length in 1...min(longest, j - 1) {
                let i = j - length
                guard let b = boxes[i * longest + length - 1] else { continue }
                for previous in 1...min(longest, i) {
                    guard let a = boxes[(i - previous) * longest + previous - 1] else { continue }
                    let before = i == previous ? 0 : cost[i * longest + previous - 1]
                    guard before < .infinity else { continue }
                    let c = before + orderCost(after: row[(i - previous)..<i], row[i..<j], a, b)
                    cost[j * longest + length - 1] = min(cost[j * longest + length - 1], c)
                }
            }
        }
        return (1...min(longest, m)).map { cost[m * longest + $0 - 1] }.min() ?? .infinity
    }

    /// The straight stretches of a stroke (segments turning less than
    /// `straightTurn` from the stretch's first), longest first, that start
    /// after its first point, end before its last and are at least
    /// `stretchLength` heights long: as splits dropping the stretch.
    func stretches(_ s: Int, _ points: [StrokePoint]) -> [StrokeSplit] {
        var found: [(length: Double, cut: StrokeSplit)] = []
        var first = 0
        while first < points.count - 1 {
            let dx = points[first + 1].x - points[first].x, dy = points[first + 1].y - points[first].y
            let norm = (dx * dx + dy * dy).squareRoot()
            var last = first + 1
            while last < points.count - 1 {
                let ex = points[last + 1].x - points[last].x, ey = points[last + 1].y - points[last].y
                let len = (ex * ex + ey * ey).squareRoot()
                guard norm > 1e-12, len < 1e-12 || (ex * dx + ey * dy) / (len * norm) > tuning.straightTurn else { break }
                last += 1
            }
            let lx = points[last].x - points[first].x, ly = points[last].y - points[first].y
            let length = (lx * lx + ly * ly).squareRoot()
            if first > 0, last < points.count - 1, length >= tuning.stretchLength * height {
                found.append((length, StrokeSplit(stroke: s, end: first + 1, start: last)))
            }
            first = last
        }
        return found.sorted { $0.length > $1.length }.map(\.cut)
    }

    /// The straight stretch of `points` holding segment i-1→i (segments turning
    /// less than `straightTurn` from it): its first point's index + 1 and its
    /// last point's index.
    private func straight(_ points: [StrokePoint], around i: Int) -> (end: Int, start: Int) {
        let dx = points[i].x - points[i - 1].x, dy = points[i].y - points[i - 1].y
        let norm = max((dx * dx + dy * dy).squareRoot(), 1e-12)
        func along(_ a: Int, _ b: Int) -> Bool {
            let ex = points[b].x - points[a].x, ey = points[b].y - points[a].y
            let len = (ex * ex + ey * ey).squareRoot()
            return len < 1e-12 || (ex * dx + ey * dy) / (len * norm) > tuning.straightTurn
        }
        var first = i - 1, last = i
        while first > 0 && along(first - 1, first) { first -= 1 }
        while last < points.count - 1 && along(last, last + 1) { last += 1 }
        return (first + 1, last)
    }

    /// Whether strokes `b` follow strokes `a` as the next digit would, at no
    /// order cost, both at least `innerHeight` heights tall: the strokes of
    /// one digit do not (a 4's second stroke crosses its first, a 5's bar or
    /// a 7's crossbar is low, a 9's loop is half a digit high). A run holding
    /// two such parts costs `innerOrderCost`. Rows and boxes as `orderCost`'s.
    func standApart(_ a: ArraySlice<Int>, _ b: ArraySlice<Int>, _ ra: InkBox, _ rb: InkBox) -> Bool {
        min(ra.y1 - ra.y0, rb.y1 - rb.y0) >= tuning.innerHeight * height && orderCost(after: a, b, ra, rb) == 0
    }

    /// What it costs for run `b` to follow run `a` as the next digit: in every
    /// band where both have ink, b's left and right edges should be right of
    /// a's (by `orderSlack` heights; negative, as now: they may reach back
    /// over a's by that much, touching digits' ink overlapping a little); per
    /// height short, `orderCost`. Runs that share no band: b's centre right of a's.
    /// One on the other (`stackedOrderCost`) or one hanging beside the other
    /// (`hangs`, `hangCost`): more, whatever the edges.
    /// `a` and `b` are the runs' rows in the profiles, `ra` and `rb` their boxes.
    func orderCost(after a: ArraySlice<Int>, _ b: ArraySlice<Int>, _ ra: InkBox, _ rb: InkBox) -> Double {
        let bands = Self.bands
        var short = 0.0
        var shared = false
        for band in 0..<bands {
            var la = Double.infinity, rA = -Double.infinity, lb = Double.infinity, rB = -Double.infinity
            for s in a {
                la = min(la, profileLeft[s * bands + band]); rA = max(rA, profileRight[s * bands + band])
            }
            for s in b {
                lb = min(lb, profileLeft[s * bands + band]); rB = max(rB, profileRight[s * bands + band])
            }
            guard la <= rA, lb <= rB else { continue }
            shared = true
            let slack = tuning.orderSlack * height
            short = max(short, la + slack - lb, rA + slack - rB)
        }
        if !shared { short = max(0, (ra.x0 + ra.x1) / 2 - (rb.x0 + rb.x1) / 2) }
        // One above the other, sharing less than `stackedShare` of the
        // shorter's height: the two parts of one digit (an 8's loops, a 9's
        // loop and stem), not two digits side by side.
        let overlap = min(ra.y1, rb.y1) - max(ra.y0, rb.y0)
        let stacked = overlap < tuning.stackedShare * min(ra.y1 - ra.y0, rb.y1 - rb.y0)
        let hangs = self.hangs(ra.y0...ra.y1, rb.y0...rb.y1)
        return tuning.orderCost * max(0, short) / height + (stacked ? tuning.stackedOrderCost : 0)
            + (hangs ? tuning.hangCost : 0)
    }
}
