"""Capacity: the box under a crowd, through the front, against nginx serving a static file.

The Zipf mix closed-loop (wrk) and open-loop (vegeta, the knee), the edge cache per page type,
the CPU each kind of request costs and the capacity model built on it, slow clients and an
abusive one.
"""
