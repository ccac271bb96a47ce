"""The designed board sides, deck and scoring, shipped in the package as hashi_print.layouts."""
