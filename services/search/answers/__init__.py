"""From Elasticsearch's answer to what the site shows: typed results and the reads beside a search.

A search's results (``results``: hits, facet counts, paging, an export's papers) and what a
search that finds nothing answers (``corrections``); the other reads, each its body and its
shaping: trends and venue statistics (``stats``, with ``score_histogram``), the browse pages
(``browse``), an author's page (``authors``) and autocomplete (``suggest``). Bodies come from
``query`` where they are a search's; the front door (``service``) sends them, so nothing here
talks to Elasticsearch.
"""
