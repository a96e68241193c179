# The dialect documentation in the tree is the one generated from the definitions.
# RUN: %harp-opt --emit-dialect-doc | diff - %S/../../../dialects/host.md
