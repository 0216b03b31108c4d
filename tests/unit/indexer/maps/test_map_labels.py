"""Cluster names (services/indexer/maps/labels.py): what a cluster's papers share that the venue-year's others do not."""

from services.indexer.maps.labels import MAX_LABEL, LabelInput, name_clusters, paper_terms

OTHER_TITLES = [
    "Graph Neural Networks for Molecules", "Bandit Algorithms with Regret Bounds", "Learning to Rank Documents",
    "Protein Structure Prediction", "Robust Optimization via Duality", "Causal Discovery from Observational Data",
    "Federated Learning under Heterogeneity", "A Study of Attention Heads",
]


def venue(*clusters: list[LabelInput]):
    papers, ids = [], []
    for c, members in enumerate(clusters):
        papers += members
        ids += [c] * len(members)
    return name_clusters(papers, ids)


def titled(*titles, keywords=()):
    return [LabelInput(t, keywords) for t in titles]


def test_a_cluster_is_named_by_the_phrase_its_papers_share():
    series = titled("Time Series Forecasting with Transformers", "Mixers for Time Series", "Time Series Anomalies",
                    "Irregular Time Series Imputation", "Patches Make Time Series Forecasting Easy", "Forecasting Sales")
    names = venue(series, titled(*OTHER_TITLES))
    assert names[0].terms[0] == "time series"  # the phrase, not "series" nor "time"


def test_words_every_corner_shares_never_name_a_cluster_alone():
    papers = titled(*(f"Efficient Learning of {w} via Neural Networks" for w in ("Tables", "Tables", "Tables", "Tables")))
    name = venue(papers, titled(*OTHER_TITLES))[0]
    assert not {"efficient", "learning", "via", "neural", "network"} & set(name.terms)
    assert name.terms[0] == "tables"


def test_keywords_name_a_cluster_as_the_authors_wrote_them():
    papers = [LabelInput(f"Paper {i}", ("Diffusion Models", "Score Matching")) for i in range(5)]
    others = [LabelInput(t, ("Graphs",)) for t in OTHER_TITLES]
    assert set(venue(papers, others)[0].terms) == {"diffusion models", "score matching"}


def test_acronyms_keep_their_case():
    papers = titled("Aligning LLMs with Feedback", "LLMs Can Plan", "Reasoning in LLMs", "Do LLMs Dream?",
                    "Small LLMs Judge Large Ones")
    assert venue(papers, titled(*OTHER_TITLES))[0].terms[0] == "LLMs"


def test_two_clusters_never_share_a_name():
    twins = titled(*["Reinforcement Learning for Robots"] * 6)
    names = venue(twins, list(twins), titled(*OTHER_TITLES))
    assert names[0].label != names[1].label


def test_a_cluster_without_a_telling_term_is_named_by_its_topic():
    bland = [LabelInput(t, (), ("Computer Vision",)) for t in ("Seeing", "Pixels Matter", "On Cameras", "Depth")]
    assert venue(bland, titled(*OTHER_TITLES))[0].label == "Computer Vision"


def test_names_are_short():
    long_words = titled(*["Hyperparameteroptimizationautomation Metalearningbenchmarksuite Crossdomaingeneralization"] * 5)
    assert len(venue(long_words, titled(*OTHER_TITLES))[0].label) <= MAX_LABEL


def test_a_paper_offers_its_words_phrases_and_keywords_by_their_singular():
    terms = paper_terms(LabelInput("Language Models as Agents", ("Large Language Models",)))
    assert {"language", "language model", "agent", "large language model"} <= terms
    assert "model" not in terms and "as" not in terms
