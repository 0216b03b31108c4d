"""Limits of a search request, each defined once: validation, the OpenAPI document and the templates import them."""

from __future__ import annotations

MAX_QUERY = 500            # characters of ``q``: the search box's maxlength; a longer ``q`` (a URL made by hand)
                           # is a 400 whose page offers "papers like this text"
MAX_REQUEST_LINE = 8000    # bytes of a request line the front reads (nginx's large_client_header_buffers; gunicorn
                           # reads up to 8,190): the box's longest query, 9 bytes a character percent-encoded at
                           # worst, fits with its filters; a longer line gets the site's 414 page, or JSON on /api/
MAX_SUGGEST_PREFIX = 100   # characters of an autocomplete prefix
MAX_PAPER_ID = 100         # characters of a paper id in a URL (longer ones are cut, then not found)
MIN_YEAR, MAX_YEAR = 1900, 2100  # years a filter or a ``year:`` scope may name
DEFAULT_PAGE_SIZE = 20
MAX_PAGE_SIZE = 100
MAX_WINDOW = 10_000        # Elasticsearch's max_result_window: deeper pages need search_after
MAX_FILTER_VALUES = 20     # values per facet parameter (repeats and blanks count)
MAX_VALUE_CHARS = 300      # characters of one facet value
SUGGEST_WORDS = 24         # words of the free text a correction is sought for (a long title; not a paragraph)
SUGGEST_BELOW = 5          # offer "did you mean" when a search finds fewer hits than this
SAMPLE_FACETS_ABOVE = 50_000  # papers a search's words match above which its facet counts are estimated from a
                           # random sample ("about"): counting all 137k of ``learning`` was half its cost
FACET_SAMPLE = 10_000      # papers in that sample (about; the probability is this over the papers matched)
SAMPLE_CHECK_WORDS = 1     # content words (stopwords aside) up to which a search is first counted to tell whether
                           # it is broad (a round trip before the search); longer queries are counted exactly
NAMED_TITLE_WORDS = 3      # a query that is a paper's whole title of this many words lists it whatever its status
                           # (a rejected paper too); a shorter title ("Image Transformer") is a topic as often
LONG_TEXT_WORDS = 12       # a query of this many words that finds nothing was likely pasted: point to "papers like this text"
EXPORT_LIMIT = 1000        # papers in one export
MAP_MATCHES = 1000         # papers of a search a venue-year's map highlights (its first, by the search's order)
FEED_ENTRIES = 50          # entries of an Atom feed
BRIEF_ABSTRACT = 300       # characters of an abstract in an agent's list of papers (the MCP tools): its start,
                           # cut at a word
MAX_PREFIX_TERMS = 8       # ``prefix*`` terms of one query run as prefixes; later ones match as words
PREFIX_EXPANSIONS = 64     # index terms one prefix may expand to (the best-scoring ones)
AUTHOR_PAGE_PAPERS = 200   # papers an author page lists (a search for the author lists them all)
PERSON_PAGE_PAPERS = 50    # papers a person's page lists at a time (newest first, paged: ?page=)
MAX_AUTHOR_NAME = 200      # characters of a name an author page or the people API reads (a page cuts the rest,
                           # the API answers 400)
# A person id as the people pass makes it (services.indexer.corpus.people.ids): "p" and 12 hex digits. A URL or
# a ``person:`` operator with anything else names nobody.
PERSON_ID_PATTERN = r"p[0-9a-f]{12}"
FRONT_PAGE_PAPERS = 20     # papers of the newest conference-year on the front page
PAPER_AUTHORS_SHOWN = 8    # authors a paper page lists before folding the rest (when more than two are left),
                           # so its row of links stays in the first screen of a phone
PHONE_YEARS_SHOWN = 10     # years of a venue's "Years:" row a phone shows before "all N years" (NeurIPS has 40)
NEWEST_MIN_PAPERS = 20     # a venue's first edition with fewer papers is a preview (a stray early record, not a list)
COMPLETE_SHARE = 0.5       # a venue's newest edition with fewer papers than this share of its previous one is a
                           # preview ("20 of NeurIPS 2026's papers so far"): it never leads the front page
NEWEST_MIN_ABSTRACTS = 0.5  # the lead: when an edition of the same year has abstracts for this share of its
                           # papers, only such an edition (never a title-only list before a covered one)
LEAD_MIN_SHARE = 0.25      # ... and only an edition with at least this share of the biggest such edition of its
                           # year (IJCAI 2026's 953 papers, held in August, do not lead over ICML 2026's 6,628 of July)
MAX_SIMILAR_TEXT = 5000    # characters of the text "papers like this" embeds (POST /api/v1/similar, /similar)
MAX_SHARED_URL = 3000      # bytes of a shareable ``/similar?text=…`` link (well within MAX_REQUEST_LINE);
                           # a longer text is sent by POST and its results have no link
SEMANTIC_K = 100           # nearest neighbours a semantic search ranks and counts facets over (more when paged deeper)
SEMANTIC_CANDIDATES = 200  # HNSW candidates per shard: recall against latency
MAX_LIST_PAPERS = 100      # papers of one reading list (/list?ids=…, its export): 100 ids fit a shareable link
# A reading list's ``ids``: at most MAX_LIST_PAPERS comma-separated paper ids (blanks and spaces around them ignored);
# the validation and the OpenAPI document read this one pattern.
PAPER_ID_PATTERN = rf"[A-Za-z0-9][A-Za-z0-9._-]{{0,{MAX_PAPER_ID - 1}}}"
LIST_IDS_PATTERN = rf"^ *(?:{PAPER_ID_PATTERN})? *(?:, *(?:{PAPER_ID_PATTERN})? *){{0,{MAX_LIST_PAPERS - 1}}}$"
TOP_INSTITUTIONS = 50      # institutions a venue-year lists by papers (page and venue JSON)
TOP_TIERED_INSTITUTIONS = 20  # ... and by oral and spotlight papers, where the venue-year has those tiers
MIN_SHARE_PAPERS = 10      # a share of fewer papers than this is never shown without its count
# /new and the followed sources (issue 47)
MAX_SINCE = 40             # characters of /new's since= (an ISO 8601 time with its offset is 25)
MAX_SINCE_DAYS = 366       # how far back since= may go
MAX_SOURCE_URL = 2000      # characters of a followed source's URL
SOURCE_ID_PATTERN = r"[0-9a-f]{40}"  # a followed source's id: the SHA-1 of its URL, as the admin API's paths take it
# The BibTeX upgrade (issue 48): POST /api/v1/bibtex/upgrade and /tools/bibtex; nginx's client_max_body_size for
# that route is this many bytes too (deploy/nginx/paperlist.conf.template, checked by tests/unit/search/test_limits.py)
MAX_BIBTEX_BYTES = 1024 * 1024  # bytes of one .bib (UTF-8): 1 MB, a long thesis's reference list several times over
MAX_BIBTEX_ENTRIES = 2000  # entries of one .bib (@string, @preamble and @comment blocks aside)
MAX_BIBTEX_BODY = MAX_BIBTEX_BYTES + 64 * 1024  # bytes of the request body those routes read: the .bib and the
                           # form's other fields and multipart framing (nginx's client_max_body_size for them: 1088k)
VENUE_MATCH_BATCH = 250    # whole titles per search, cut titles per msearch: each call its share of the request budget
VENUE_MATCH_CANDIDATES = 10  # papers read per cited work: its whole title's, then titles it starts before a colon
