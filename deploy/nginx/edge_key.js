// The edge cache's key for a request: its path as sent and its query in one canonical form.
//
// Loaded by njs (Debian's libnginx-mod-http-js; the official nginx image ships the module)
// through `js_set $paperlist_edge_uri edge_key.uri` in paperlist.conf.template. A search is
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

function decode(part) {
    return decodeURIComponent(part.replace(/\+/g, ' '));
}

function encode(text) {
    return encodeURIComponent(text).replace(/[!'()*]/g, function (c) {
        return '%' + c.charCodeAt(0).toString(16).toUpperCase();
    }).replace(/%20/g, '+');
}

function canonicalQuery(raw) {
    var pieces = raw.split('&');
    var pairs = [];
    try {
        for (var i = 0; i < pieces.length; i++) {
            if (!pieces[i]) {
                continue;
            }
            var at = pieces[i].indexOf('=');
            var name = at < 0 ? pieces[i] : pieces[i].slice(0, at);
            var value = at < 0 ? '' : pieces[i].slice(at + 1);
            pairs.push([decode(name), decode(value), i]);
        }
    } catch (e) {  // URIError: a malformed escape, or bytes that are not UTF-8
        return '!' + raw;
    }
    pairs.sort(function (a, b) {
        return a[0] < b[0] ? -1 : (a[0] > b[0] ? 1 : a[2] - b[2]);
    });
    return pairs.map(function (p) {
        return encode(p[0]) + '=' + encode(p[1]);
    }).join('&');
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
