"""The miss-cost bench's raw bodies: Elasticsearch's query alone keeps the API's filters."""

import json

from bench.cost import miss_cost


def test_raw_query_only_body_keeps_the_api_filters_and_drops_aggs_highlight_suggest():
    body = miss_cost.bodies("graph neural networks", {"status": ["oral"]})["es_query"]
    assert not {"aggs", "highlight", "suggest"} & set(body)
    assert '"oral"' in json.dumps(body)  # linear_scan asks ES for the same statuses as the API
    assert '"oral"' not in json.dumps(miss_cost.bodies("graph neural networks")["es_query"])
