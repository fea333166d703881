# Build stage: the Swift toolchain plus the C libraries' headers (libuv: the
# epoll loop lws runs on by default, MINDPAD_EVENT_LOOP; and
# libcurl's, which the statically linked FoundationNetworking links for the
# weather provider), then the same release build that `make run` performs.
FROM swift:6.0-bookworm AS build
RUN apt-get update \
 && apt-get install -y --no-install-recommends pkg-config libwebsockets-dev libuv1-dev libpq-dev libssl-dev libcurl4-openssl-dev \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY Package.swift ./
COPY Sources ./Sources
COPY Tests ./Tests
RUN swift build -c release --product mindpad --static-swift-stdlib
# The binary and the resource bundles SwiftPM puts beside it (the model).
RUN bin="$(swift build -c release --show-bin-path)" \
 && mkdir -p /out \
 && cp "$bin/mindpad" /out/ \
 && find "$bin" -maxdepth 1 -name '*.resources' -exec cp -R {} /out/ \;

# Runtime stage: the binary, its resources, and the C libraries (libcrypto
# is in libssl3; lws loads its libuv plugin for the default loop, libuv).
FROM debian:bookworm-slim
RUN apt-get update \
 && apt-get install -y --no-install-recommends libwebsockets17 libwebsockets-evlib-uv libuv1 libpq5 libssl3 libcurl4 ca-certificates curl \
 && rm -rf /var/lib/apt/lists/* \
 && useradd --system --home /app mindpad \
 && mkdir -p /var/lib/mindpad && chown mindpad /var/lib/mindpad
WORKDIR /app
COPY --from=build /out/ /app/
COPY Migrations ./Migrations
COPY web ./web
USER mindpad
ENV PORT=8080 MINDPAD_WEB_ROOT=/app/web MINDPAD_MIGRATIONS=/app/Migrations MINDPAD_DATA_DIR=/var/lib/mindpad
EXPOSE 8080
STOPSIGNAL SIGTERM
HEALTHCHECK --interval=10s --timeout=3s CMD ["curl", "-fsS", "http://127.0.0.1:8080/healthz"]
CMD ["/app/mindpad", "serve"]
