// The edge cache's key for a request: its path as sent and its query in one canonical form.
//
// Loaded by njs (Debian's libnginx-mod-http-js; the official nginx image ships the module)
// through `js_set $paperlist_edge_query_uri edge_key.uri` in paperlist.conf.template. A search is
// the same whatever order its parameters come in and however its spaces are written (`+` or
// `%20`), so the edge keys all of them as one entry and answers every one directly: no
// redirect to a canonical URL (the contract's "answers in whatever order ... without a
// redirect").
//
// The canonical query is the app's (services/web/http/canonical.py): pairs sorted by their
// decoded name, stably (a repeated parameter's values keep their order), each name and value
// percent-encoded as Python's urlencode does (space as `+`, only A-Z a-z 0-9 _ . - ~ kept).
// A parameter without `=` is the same as one with an empty value, and empty pieces (`&&`) are
// dropped, as the app reads them. A query that is not valid percent-encoded UTF-8 keeps its
// raw form behind a `!` (which no canonical query holds): it is its own entry, never another's
// (the app answers it 400 anyway).

// A piece already in canonical form: a name and a value of characters urlencode keeps as they are
// (and `+`, its space, in the value). Most pieces are; they are taken as they are, without decoding,
// and a query of such pieces already in order (the app's own links) is its own canonical form.
var PLAIN = /^[A-Za-z0-9_.~-]*=[A-Za-z0-9_.~+-]*$/;
var ALL_PLAIN = /^[A-Za-z0-9_.~-]*=[A-Za-z0-9_.~+-]*(&[A-Za-z0-9_.~-]*=[A-Za-z0-9_.~+-]*)*$/;

function inOrder(raw) {
    var previous = '';
    var start = 0;
    while (start < raw.length) {
        var name = raw.slice(start, raw.indexOf('=', start));
        if (name < previous) {
            return false;
        }
        previous = name;
        var next = raw.indexOf('&', start);
        start = next < 0 ? raw.length : next + 1;
    }
    return true;
}

// Each step only where it has something to do: a replace with a callback is the costly part.
function decode(part) {
    if (part.indexOf('+') >= 0) {
        part = part.replace(/\+/g, ' ');
    }
    return part.indexOf('%') >= 0 ? decodeURIComponent(part) : part;
}

var KEPT_BY_JS = /[!'()*]/;  // what encodeURIComponent leaves and urlencode escapes

function encode(text) {
    var out = encodeURIComponent(text);
    if (KEPT_BY_JS.test(out)) {
        out = out.replace(/[!'()*]/g, function (c) {
            return '%' + c.charCodeAt(0).toString(16).toUpperCase();
        });
    }
    return out.indexOf('%20') >= 0 ? out.replace(/%20/g, '+') : out;
}

function canonicalQuery(raw) {
    if (ALL_PLAIN.test(raw) && inOrder(raw)) {
        return raw;
    }
    var pieces = raw.split('&');
    var pairs = [];
    var sorted = true;
    try {
        for (var i = 0; i < pieces.length; i++) {
            var piece = pieces[i];
            if (!piece) {
                continue;
            }
            var at = piece.indexOf('=');
            var name;
            if (PLAIN.test(piece)) {
                name = piece.slice(0, at);
            } else {
                name = decode(at < 0 ? piece : piece.slice(0, at));
                piece = encode(name) + '=' + encode(at < 0 ? '' : decode(piece.slice(at + 1)));
            }
            if (pairs.length && name < pairs[pairs.length - 1][0]) {
                sorted = false;
            }
            pairs.push([name, piece, pairs.length]);
        }
    } catch (e) {  // URIError: a malformed escape, or bytes that are not UTF-8
        return '!' + raw;
    }
    if (!sorted) {
        pairs.sort(function (a, b) {
            return a[0] < b[0] ? -1 : (a[0] > b[0] ? 1 : a[2] - b[2]);
        });
    }
    var out = [];
    for (var j = 0; j < pairs.length; j++) {
        out.push(pairs[j][1]);
    }
    return out.join('&');
}

// The request's path as sent, then `?` and the canonical query when there is one.
function uri(r) {
    var sent = r.variables.request_uri || '';
    var mark = sent.indexOf('?');
    if (mark < 0) {
        return sent;
    }
    var query = canonicalQuery(sent.slice(mark + 1));
    return query ? sent.slice(0, mark) + '?' + query : sent.slice(0, mark);
}

export default {uri, canonicalQuery};
