// page_layout.js - test_report_blocks.sh's check of a page in headless Chromium: the text boxes that
// overlap (pairs of texts, each box clipped to its name cell) and the words (runs of letters and digits)
// broken across two lines, written on <body> as data-overlaps and data-broken ("none" when there are none).
(function () {
    var boxes = [], broken = [], overlaps = [];
    var walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT), n;
    var range = document.createRange();
    while ((n = walker.nextNode())) {
        var el = n.parentElement;
        if (!n.textContent.trim() || el.closest("script,style,title")) continue;
        var re = /[A-Za-z0-9]+/g, m;
        while (!el.closest("svg") && (m = re.exec(n.textContent)) && broken.length < 10) {
            range.setStart(n, m.index);
            range.setEnd(n, m.index + m[0].length);
            var rs = Array.from(range.getClientRects()).filter(function (x) { return x.width > 0; });
            if (rs.length > 1 && Math.abs(rs[0].top - rs[rs.length - 1].top) > 1) broken.push(m[0]);
        }
        range.selectNodeContents(n);
        var cell = el.closest("td.name"), clip = cell ? cell.getBoundingClientRect() : null;
        // an SVG text: its element's box (a range over it gives no glyph boxes)
        var rects = el.closest("svg") ? [el.getBoundingClientRect()] : Array.from(range.getClientRects());
        rects.forEach(function (b) {
            var x = {l: b.left, r: b.right, t: b.top, b: b.bottom};
            if (clip) { x.l = Math.max(x.l, clip.left); x.r = Math.min(x.r, clip.right); }
            if (x.r - x.l > 0.5 && x.b - x.t > 0.5) boxes.push({node: n, x: x});
        });
    }
    boxes.sort(function (a, b) { return a.x.t - b.x.t; });
    for (var i = 0; i < boxes.length && overlaps.length < 10; i++)
        for (var j = i + 1; j < boxes.length && boxes[j].x.t < boxes[i].x.b - 0.5; j++) {
            var a = boxes[i].x, b = boxes[j].x;
            if (boxes[i].node !== boxes[j].node && a.l < b.r - 0.5 && b.l < a.r - 0.5 && b.t < a.b - 0.5)
                overlaps.push(boxes[i].node.textContent.trim().slice(0, 40) + " / " + boxes[j].node.textContent.trim().slice(0, 40));
        }
    document.body.setAttribute("data-overlaps", overlaps.join("; ") || "none");
    document.body.setAttribute("data-broken", broken.join("; ") || "none");
})();
