"""A venue-year's map (issue 32): which venue-years need one, their layout, their clusters' names, stored."""
