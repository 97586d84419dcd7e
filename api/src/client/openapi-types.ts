/**
 * Generated from openapi.json by openapi-typescript (`npm run generate -w @strata/api`); do not edit.
 * openapi.test.ts fails when it is stale. Used through createStrataClient (./strata-client.ts).
 */
export interface paths {
    "/v1/clusters": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List clusters */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description OK */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ClusterList"];
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Too many requests from this caller or address (code rate_limited). Retry-After says when to ask again. */
                429: {
                    headers: {
                        /** @description Seconds until a new request can succeed */
                        "Retry-After"?: number;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        put?: never;
        /** Create a cluster */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["CreateClusterRequest"];
                };
            };
            responses: {
                /** @description Accepted; follow the operation at Location */
                202: {
                    headers: {
                        Location?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ClusterWithOperation"];
                    };
                };
                /** @description Invalid request (code validation_failed) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description The role or token lacks the scope this operation needs (code forbidden) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Not found (also for resources of another organization) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description A cluster with this name exists (code name_taken) */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description The spec cannot be placed on the available nodes (code unplaceable); restoreFrom names a backup that cannot be restored into this spec (codes backup_not_completed, restore_memory_too_small, backup_corrupted, rdb_version_unsupported) */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Too many requests from this caller or address (code rate_limited). Retry-After says when to ask again. */
                429: {
                    headers: {
                        /** @description Seconds until a new request can succeed */
                        "Retry-After"?: number;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/clusters/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get a cluster */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description OK */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Cluster"];
                    };
                };
                /** @description Invalid request (code validation_failed) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description The role or token lacks the scope this operation needs (code forbidden) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Not found (also for resources of another organization) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Too many requests from this caller or address (code rate_limited). Retry-After says when to ask again. */
                429: {
                    headers: {
                        /** @description Seconds until a new request can succeed */
                        "Retry-After"?: number;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        /** Delete a cluster */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Accepted */
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ClusterWithOperation"];
                    };
                };
                /** @description Invalid request (code validation_failed) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description The role or token lacks the scope this operation needs (code forbidden) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Not found (also for resources of another organization) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Too many requests from this caller or address (code rate_limited). Retry-After says when to ask again. */
                429: {
                    headers: {
                        /** @description Seconds until a new request can succeed */
                        "Retry-After"?: number;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        /** Change shards, replicas, memory, durability or eviction online; ?dryRun=true returns the plan and changes nothing */
        patch: {
            parameters: {
                query?: {
                    /** @description true: return the plan and change nothing */
                    dryRun?: "true" | "false";
                };
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["UpdateClusterRequest"];
                };
            };
            responses: {
                /** @description Dry run: the plan; or maintenanceWindow alone: applied at once */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["UpdateClusterDryRun"] | components["schemas"]["UpdateClusterApplied"];
                    };
                };
                /** @description Accepted: the change runs as an operation */
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ClusterUpdateAccepted"];
                    };
                };
                /** @description Invalid request (code validation_failed) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description The role or token lacks the scope this operation needs (code forbidden) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Not found (also for resources of another organization) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Another change is running (code operation_in_progress, with operationId), or the cluster is not ready */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description The nodes cannot hold it (code unplaceable) or the data would not fit (code does_not_fit) */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Too many requests from this caller or address (code rate_limited). Retry-After says when to ask again. */
                429: {
                    headers: {
                        /** @description Seconds until a new request can succeed */
                        "Retry-After"?: number;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        trace?: never;
    };
    "/v1/clusters/{id}/shards/{index}/switchover": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Promote a replica of one shard without losing acknowledged writes */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                    index: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["SwitchoverRequest"];
                };
            };
            responses: {
                /** @description Accepted */
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ClusterWithOperation"];
                    };
                };
                /** @description Invalid request (code validation_failed) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description The role or token lacks the scope this operation needs (code forbidden) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Not found (also for resources of another organization) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Another change is running */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description No in-sync replica */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Too many requests from this caller or address (code rate_limited). Retry-After says when to ask again. */
                429: {
                    headers: {
                        /** @description Seconds until a new request can succeed */
                        "Retry-After"?: number;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/clusters/{id}/restart": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Rolling restart: every instance once, replicas first, primaries after a data-safe switchover */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["RestartClusterRequest"];
                };
            };
            responses: {
                /** @description Accepted: the restart-cluster operation (pending with startsAt while it waits for the cluster's maintenance window) */
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ClusterWithOperation"];
                    };
                };
                /** @description Invalid request (code validation_failed) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description The role or token lacks the scope this operation needs (code forbidden) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Not found (also for resources of another organization) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Another change is running or waiting for the maintenance window (code operation_in_progress), or the cluster is not ready */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description A shard has no replica and the cluster keeps no append-only file: restarting its primary would lose its data (code would_lose_data); when is maintenance_window but the cluster has none (code no_maintenance_window) */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Too many requests from this caller or address (code rate_limited). Retry-After says when to ask again. */
                429: {
                    headers: {
                        /** @description Seconds until a new request can succeed */
                        "Retry-After"?: number;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/operations/{id}/pause": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Pause a running topology change (update-cluster) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description OK */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Operation"];
                    };
                };
                /** @description Invalid request (code validation_failed) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description The role or token lacks the scope this operation needs (code forbidden) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Not found (also for resources of another organization) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Not an unfinished update, or past its point of no return */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Too many requests from this caller or address (code rate_limited). Retry-After says when to ask again. */
                429: {
                    headers: {
                        /** @description Seconds until a new request can succeed */
                        "Retry-After"?: number;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/operations/{id}/resume": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Resume a running topology change (update-cluster) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description OK */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Operation"];
                    };
                };
                /** @description Invalid request (code validation_failed) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description The role or token lacks the scope this operation needs (code forbidden) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Not found (also for resources of another organization) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Not an unfinished update, or past its point of no return */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Too many requests from this caller or address (code rate_limited). Retry-After says when to ask again. */
                429: {
                    headers: {
                        /** @description Seconds until a new request can succeed */
                        "Retry-After"?: number;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/operations/{id}/cancel": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Cancel a running topology change (update-cluster), or a rolling restart still waiting for the maintenance window */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description OK */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Operation"];
                    };
                };
                /** @description Invalid request (code validation_failed) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description The role or token lacks the scope this operation needs (code forbidden) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Not found (also for resources of another organization) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Not an unfinished update, or past its point of no return */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Too many requests from this caller or address (code rate_limited). Retry-After says when to ask again. */
                429: {
                    headers: {
                        /** @description Seconds until a new request can succeed */
                        "Retry-After"?: number;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/clusters/{id}/tls/rotate-ca": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Rotate a TLS cluster's CA in place: new CA trusted, instance certificates re-issued, old CA retired, without a restart */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["RotateCaRequest"];
                };
            };
            responses: {
                /** @description Accepted: the rotate-ca operation */
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ClusterWithOperation"];
                    };
                };
                /** @description Invalid request (code validation_failed) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description The role or token lacks the scope this operation needs (code forbidden) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Not found (also for resources of another organization) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Another change is running (code operation_in_progress), the cluster is not ready or degraded, or TLS is off (code tls_off) */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Too many requests from this caller or address (code rate_limited). Retry-After says when to ask again. */
                429: {
                    headers: {
                        /** @description Seconds until a new request can succeed */
                        "Retry-After"?: number;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/clusters/{id}/topology": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Shards, slot ranges and instances */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description OK */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Topology"];
                    };
                };
                /** @description Invalid request (code validation_failed) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description The role or token lacks the scope this operation needs (code forbidden) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Not found (also for resources of another organization) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Too many requests from this caller or address (code rate_limited). Retry-After says when to ask again. */
                429: {
                    headers: {
                        /** @description Seconds until a new request can succeed */
                        "Retry-After"?: number;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/clusters/{id}/connection": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Connection string and credentials */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description OK */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Connection"];
                    };
                };
                /** @description Invalid request (code validation_failed) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description The role or token lacks the scope this operation needs (code forbidden) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Not found (also for resources of another organization) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Cluster is being deleted */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Too many requests from this caller or address (code rate_limited). Retry-After says when to ask again. */
                429: {
                    headers: {
                        /** @description Seconds until a new request can succeed */
                        "Retry-After"?: number;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/clusters/{id}/ca.pem": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The cluster's CA certificate (PEM), for clients that verify TLS */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description application/x-pem-file */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/x-pem-file": string;
                    };
                };
                /** @description Invalid request (code validation_failed) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description The role or token lacks the scope this operation needs (code forbidden) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Not found (also for resources of another organization) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description TLS is off for this cluster (code tls_off) */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Too many requests from this caller or address (code rate_limited). Retry-After says when to ask again. */
                429: {
                    headers: {
                        /** @description Seconds until a new request can succeed */
                        "Retry-After"?: number;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/clusters/{id}/client-certificates": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The client certificates issued for a cluster, revoked ones included (never their keys) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description OK */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ClientCertificateList"];
                    };
                };
                /** @description Invalid request (code validation_failed) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description The role or token lacks the scope this operation needs (code forbidden) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Not found (also for resources of another organization) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Too many requests from this caller or address (code rate_limited). Retry-After says when to ask again. */
                429: {
                    headers: {
                        /** @description Seconds until a new request can succeed */
                        "Retry-After"?: number;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        put?: never;
        /** Issue a client certificate signed by the cluster's CA (mTLS); its private key is shown once */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["CreateClientCertificateRequest"];
                };
            };
            responses: {
                /** @description Issued; Strata records its name, serial and expiry, never the key */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ClientCertificateWithKey"];
                    };
                };
                /** @description Invalid request (code validation_failed) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description The role or token lacks the scope this operation needs (code forbidden) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Not found (also for resources of another organization) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description The cluster is being deleted or failed (code invalid_state) */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description TLS is off for this cluster (code tls_off, field tls) */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Too many requests from this caller or address (code rate_limited). Retry-After says when to ask again. */
                429: {
                    headers: {
                        /** @description Seconds until a new request can succeed */
                        "Retry-After"?: number;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/clusters/{id}/client-certificates/{certificateId}/revoke": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Revoke a client certificate: every instance stops trusting it within seconds (refused at the TLS handshake; open connections stay), without a restart */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                    certificateId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Revoked (again: unchanged); applied turns true once every instance has dropped it */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ClientCertificate"];
                    };
                };
                /** @description Invalid request (code validation_failed) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description The role or token lacks the scope this operation needs (code forbidden) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Not found (also for resources of another organization) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Signed by the cluster's CA itself: it cannot be revoked (code not_revocable), or the cluster is being deleted or failed (code invalid_state) */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Too many requests from this caller or address (code rate_limited). Retry-After says when to ask again. */
                429: {
                    headers: {
                        /** @description Seconds until a new request can succeed */
                        "Retry-After"?: number;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/clusters/{id}/operations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A cluster's operations, newest first */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description OK */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["OperationList"];
                    };
                };
                /** @description Invalid request (code validation_failed) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description The role or token lacks the scope this operation needs (code forbidden) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Not found (also for resources of another organization) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Too many requests from this caller or address (code rate_limited). Retry-After says when to ask again. */
                429: {
                    headers: {
                        /** @description Seconds until a new request can succeed */
                        "Retry-After"?: number;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/clusters/{id}/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A cluster's events (failovers, restarts, data loss, rebalancing, slot repair), newest first, paged */
        get: {
            parameters: {
                query?: {
                    limit?: number;
                    before?: string;
                };
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description OK */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ClusterEventList"];
                    };
                };
                /** @description Invalid request (code validation_failed) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description The role or token lacks the scope this operation needs (code forbidden) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Not found (also for resources of another organization) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Too many requests from this caller or address (code rate_limited). Retry-After says when to ask again. */
                429: {
                    headers: {
                        /** @description Seconds until a new request can succeed */
                        "Retry-After"?: number;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/clusters/{id}/diagnostics/slowlog": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The slow log of every instance, merged: newest first */
        get: {
            parameters: {
                query?: {
                    /** @description newest entries read from each instance (default 128) */
                    limit?: number;
                };
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description OK */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SlowLog"];
                    };
                };
                /** @description Invalid request (code validation_failed) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description The role or token lacks the scope this operation needs (code forbidden) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Not found (also for resources of another organization) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Too many requests from this caller or address (code rate_limited). Retry-After says when to ask again. */
                429: {
                    headers: {
                        /** @description Seconds until a new request can succeed */
                        "Retry-After"?: number;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/clusters/{id}/diagnostics/slowlog/reset": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Empty the slow log of every instance (SLOWLOG RESET) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description OK */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["SlowLogReset"];
                    };
                };
                /** @description Invalid request (code validation_failed) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description The role or token lacks the scope this operation needs (code forbidden) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Not found (also for resources of another organization) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Too many requests from this caller or address (code rate_limited). Retry-After says when to ask again. */
                429: {
                    headers: {
                        /** @description Seconds until a new request can succeed */
                        "Retry-After"?: number;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/clusters/{id}/diagnostics/key-scans": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A cluster's key scans, newest first (the last 20) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description OK */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["KeyScanList"];
                    };
                };
                /** @description Invalid request (code validation_failed) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description The role or token lacks the scope this operation needs (code forbidden) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Not found (also for resources of another organization) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Too many requests from this caller or address (code rate_limited). Retry-After says when to ask again. */
                429: {
                    headers: {
                        /** @description Seconds until a new request can succeed */
                        "Retry-After"?: number;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        put?: never;
        /** Find each shard's biggest keys (SCAN + MEMORY USAGE) and, under an LFU eviction policy, its hottest (OBJECT FREQ): throttled, bounded in time */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["KeyScanRequest"];
                };
            };
            responses: {
                /** @description Accepted; follow the scan at Location */
                202: {
                    headers: {
                        Location?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["KeyScan"];
                    };
                };
                /** @description Invalid request (code validation_failed) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description The role or token lacks the scope this operation needs (code forbidden) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Not found (also for resources of another organization) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description The cluster is not ready or a scan of it is running (code scan_in_progress) */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Too many requests from this caller or address (code rate_limited). Retry-After says when to ask again. */
                429: {
                    headers: {
                        /** @description Seconds until a new request can succeed */
                        "Retry-After"?: number;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/clusters/{id}/diagnostics/key-scans/{scanId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A key scan: progress per shard, then its big and hot keys */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                    scanId: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description OK */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["KeyScan"];
                    };
                };
                /** @description Invalid request (code validation_failed) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description The role or token lacks the scope this operation needs (code forbidden) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Not found (also for resources of another organization) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Too many requests from this caller or address (code rate_limited). Retry-After says when to ask again. */
                429: {
                    headers: {
                        /** @description Seconds until a new request can succeed */
                        "Retry-After"?: number;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/clusters/{id}/diagnostics/heat": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Ops/s and memory per shard side by side, with how uneven they are */
        get: {
            parameters: {
                query?: {
                    /** @description seconds averaged (default 10) */
                    window?: number;
                };
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description OK */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Heat"];
                    };
                };
                /** @description Invalid request (code validation_failed) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description The role or token lacks the scope this operation needs (code forbidden) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Not found (also for resources of another organization) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Too many requests from this caller or address (code rate_limited). Retry-After says when to ask again. */
                429: {
                    headers: {
                        /** @description Seconds until a new request can succeed */
                        "Retry-After"?: number;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/clusters/{id}/backups": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A cluster's backups, newest first (a deleted cluster's too, until their retention ends) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description OK */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["BackupList"];
                    };
                };
                /** @description Invalid request (code validation_failed) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description The role or token lacks the scope this operation needs (code forbidden) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Not found (also for resources of another organization) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Too many requests from this caller or address (code rate_limited). Retry-After says when to ask again. */
                429: {
                    headers: {
                        /** @description Seconds until a new request can succeed */
                        "Retry-After"?: number;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        put?: never;
        /** Back up a cluster now: one snapshot per shard (from an in-sync replica where there is one) and a manifest */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["CreateBackupRequest"];
                };
            };
            responses: {
                /** @description Accepted; follow the backup at Location */
                202: {
                    headers: {
                        Location?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["BackupResponse"];
                    };
                };
                /** @description Invalid request (code validation_failed) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description The role or token lacks the scope this operation needs (code forbidden) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Not found (also for resources of another organization) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description The cluster is not ready, or a backup of it is already running (code backup_in_progress) */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description The cluster runs an engine whose snapshots Strata cannot restore yet (code backup_engine_unsupported) */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Too many requests from this caller or address (code rate_limited). Retry-After says when to ask again. */
                429: {
                    headers: {
                        /** @description Seconds until a new request can succeed */
                        "Retry-After"?: number;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/backups/import": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Import a running Redis or Redis Cluster as a backup: an RDB of each primary fetched over the replication protocol into the storage, then restorable like any backup */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["ImportBackupRequest"];
                };
            };
            responses: {
                /** @description Accepted; follow the backup at Location */
                202: {
                    headers: {
                        Location?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["BackupResponse"];
                    };
                };
                /** @description Invalid request (code validation_failed) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description The role or token lacks the scope this operation needs (code forbidden) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Not found (also for resources of another organization) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description The source cannot be imported: unreachable (code import_unreachable), not a Redis (import_not_redis), the credentials refused (import_auth_failed), a Redis writing an RDB version newer than the engine loads (rdb_version_unsupported), or one with keys outside database 0 (rdb_databases_unsupported); field url */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Too many requests from this caller or address (code rate_limited). Retry-After says when to ask again. */
                429: {
                    headers: {
                        /** @description Seconds until a new request can succeed */
                        "Retry-After"?: number;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/backups/upload": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Upload an RDB file as a backup (streamed into the storage, checked whole), then restorable like any backup */
        post: {
            parameters: {
                query?: {
                    /** @description shown as the backup's cluster name (default: uploaded RDB) */
                    name?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            /** @description the RDB file (e.g. a dump.rdb), as raw bytes */
            requestBody: {
                content: {
                    "application/octet-stream": string;
                };
            };
            responses: {
                /** @description Stored and checked: the backup is completed */
                201: {
                    headers: {
                        Location?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["BackupResponse"];
                    };
                };
                /** @description Invalid request (code validation_failed) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description The role or token lacks the scope this operation needs (code forbidden) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description No byte of the file arrived for STRATA_BACKUP_UPLOAD_IDLE_TIMEOUT_MS (code request_timeout); the upload's total duration is not bounded */
                408: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description The file is larger than the upload limit (code payload_too_large) */
                413: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description The body is not application/octet-stream (code unsupported_media_type) */
                415: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description The file is not a whole RDB: truncated, damaged or not an RDB (code backup_corrupted), of an RDB version newer than the engine loads (rdb_version_unsupported), or with keys outside database 0 (rdb_databases_unsupported) */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Too many requests from this caller or address (code rate_limited). Retry-After says when to ask again. */
                429: {
                    headers: {
                        /** @description Seconds until a new request can succeed */
                        "Retry-After"?: number;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/backups": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The organization's backups, newest first: every cluster's (deleted clusters' too, until their retention ends), imports and uploads */
        get: {
            parameters: {
                query?: {
                    status?: "running" | "completed" | "failed";
                    /** @description true: only backups whose cluster was deleted (imports and uploads have none and are never listed so); false: the others */
                    clusterDeleted?: "true" | "false";
                    trigger?: "manual" | "schedule" | "import" | "upload";
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description OK */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["BackupList"];
                    };
                };
                /** @description Invalid request (code validation_failed) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description The role or token lacks the scope this operation needs (code forbidden) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Too many requests from this caller or address (code rate_limited). Retry-After says when to ask again. */
                429: {
                    headers: {
                        /** @description Seconds until a new request can succeed */
                        "Retry-After"?: number;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/clusters/{id}/backup-schedule": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A cluster's backup schedule and retention, and when the next scheduled backup starts */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description OK */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["BackupScheduleResponse"];
                    };
                };
                /** @description Invalid request (code validation_failed) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description The role or token lacks the scope this operation needs (code forbidden) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Not found (also for resources of another organization) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Too many requests from this caller or address (code rate_limited). Retry-After says when to ask again. */
                429: {
                    headers: {
                        /** @description Seconds until a new request can succeed */
                        "Retry-After"?: number;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        /** Set a cluster's backup schedule (every N hours, or daily at HH:MM UTC) and retention (keep the last N, or N days) */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["BackupSchedule"];
                };
            };
            responses: {
                /** @description OK */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["BackupScheduleResponse"];
                    };
                };
                /** @description Invalid request (code validation_failed) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description The role or token lacks the scope this operation needs (code forbidden) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Not found (also for resources of another organization) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Too many requests from this caller or address (code rate_limited). Retry-After says when to ask again. */
                429: {
                    headers: {
                        /** @description Seconds until a new request can succeed */
                        "Retry-After"?: number;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        post?: never;
        /** Stop scheduled backups of a cluster (and its retention: existing backups are kept until deleted) */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Removed (or there was none) */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Invalid request (code validation_failed) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description The role or token lacks the scope this operation needs (code forbidden) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Not found (also for resources of another organization) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Too many requests from this caller or address (code rate_limited). Retry-After says when to ask again. */
                429: {
                    headers: {
                        /** @description Seconds until a new request can succeed */
                        "Retry-After"?: number;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/backups/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get a backup: status, progress per shard, manifest, failure reason */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description OK */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["BackupResponse"];
                    };
                };
                /** @description Invalid request (code validation_failed) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description The role or token lacks the scope this operation needs (code forbidden) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Not found (also for resources of another organization) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Too many requests from this caller or address (code rate_limited). Retry-After says when to ask again. */
                429: {
                    headers: {
                        /** @description Seconds until a new request can succeed */
                        "Retry-After"?: number;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        /** Delete a backup and its files in the storage */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Deleted */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Invalid request (code validation_failed) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description The role or token lacks the scope this operation needs (code forbidden) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Not found (also for resources of another organization) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description The backup is still running (code backup_running), or a restore still reads it (code backup_in_use, naming the restore's operation in operationId) */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Too many requests from this caller or address (code rate_limited). Retry-After says when to ask again. */
                429: {
                    headers: {
                        /** @description Seconds until a new request can succeed */
                        "Retry-After"?: number;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description The storage could not delete its files (code storage_unavailable) */
                502: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/backups/{id}/cancel": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Cancel a running backup: it fails as cancelled and its files are removed */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description OK */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["BackupResponse"];
                    };
                };
                /** @description Invalid request (code validation_failed) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description The role or token lacks the scope this operation needs (code forbidden) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Not found (also for resources of another organization) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description The backup is not running (code invalid_state) */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Too many requests from this caller or address (code rate_limited). Retry-After says when to ask again. */
                429: {
                    headers: {
                        /** @description Seconds until a new request can succeed */
                        "Retry-After"?: number;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/backup-storage": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Where the organization's backups go: the control plane's directory (default) or S3-compatible storage (the secret is never shown) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description OK */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["BackupStorage"];
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Too many requests from this caller or address (code rate_limited). Retry-After says when to ask again. */
                429: {
                    headers: {
                        /** @description Seconds until a new request can succeed */
                        "Retry-After"?: number;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        /** Send the organization's backups to S3-compatible storage; the bucket and credentials are checked first (a probe object is written and deleted) */
        put: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["SetBackupStorageRequest"];
                };
            };
            responses: {
                /** @description OK */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["BackupStorage"];
                    };
                };
                /** @description Invalid request (code validation_failed) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description The role or token lacks the scope this operation needs (code forbidden) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description The storage cannot be used: unreachable, no such bucket, or the credentials refused (code storage_invalid, field named) */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Too many requests from this caller or address (code rate_limited). Retry-After says when to ask again. */
                429: {
                    headers: {
                        /** @description Seconds until a new request can succeed */
                        "Retry-After"?: number;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        post?: never;
        /** Send new backups to the control plane's directory again (existing backups stay where they are) */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Done */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description The role or token lacks the scope this operation needs (code forbidden) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Too many requests from this caller or address (code rate_limited). Retry-After says when to ask again. */
                429: {
                    headers: {
                        /** @description Seconds until a new request can succeed */
                        "Retry-After"?: number;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/clusters/{id}/users": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A cluster's database users (never their passwords) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description OK */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["DatabaseUserList"];
                    };
                };
                /** @description Invalid request (code validation_failed) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description The role or token lacks the scope this operation needs (code forbidden) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Not found (also for resources of another organization) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Too many requests from this caller or address (code rate_limited). Retry-After says when to ask again. */
                429: {
                    headers: {
                        /** @description Seconds until a new request can succeed */
                        "Retry-After"?: number;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        put?: never;
        /** Add a database user: rights from a preset, narrowed by key and channel patterns; its password is shown once */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["CreateDatabaseUserRequest"];
                };
            };
            responses: {
                /** @description Created; every instance gets the user within seconds (applied: true once they have) */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["DatabaseUserWithPassword"];
                    };
                };
                /** @description Invalid request (code validation_failed) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description The role or token lacks the scope this operation needs (code forbidden) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Not found (also for resources of another organization) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description A user of this name exists on the cluster (code name_taken), or the cluster is being deleted or failed (code invalid_state) */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Too many requests from this caller or address (code rate_limited). Retry-After says when to ask again. */
                429: {
                    headers: {
                        /** @description Seconds until a new request can succeed */
                        "Retry-After"?: number;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/clusters/{id}/users/{name}/rotate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** New password for a database user (shown once); the previous one keeps working for graceSeconds */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                    name: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["RotateDatabaseUserRequest"];
                };
            };
            responses: {
                /** @description OK */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["DatabaseUserWithPassword"];
                    };
                };
                /** @description Invalid request (code validation_failed) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description The role or token lacks the scope this operation needs (code forbidden) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Not found (also for resources of another organization) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description The cluster is being deleted or failed (code invalid_state) */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Too many requests from this caller or address (code rate_limited). Retry-After says when to ask again. */
                429: {
                    headers: {
                        /** @description Seconds until a new request can succeed */
                        "Retry-After"?: number;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/clusters/{id}/users/{name}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Delete a database user: removed from every instance, its open connections closed */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                    name: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Deleted */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Invalid request (code validation_failed) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description The role or token lacks the scope this operation needs (code forbidden) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Not found (also for resources of another organization) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description The cluster is being deleted or failed (code invalid_state) */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Too many requests from this caller or address (code rate_limited). Retry-After says when to ask again. */
                429: {
                    headers: {
                        /** @description Seconds until a new request can succeed */
                        "Retry-After"?: number;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/operations/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get an operation */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description OK */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Operation"];
                    };
                };
                /** @description Invalid request (code validation_failed) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description The role or token lacks the scope this operation needs (code forbidden) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Not found (also for resources of another organization) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Too many requests from this caller or address (code rate_limited). Retry-After says when to ask again. */
                429: {
                    headers: {
                        /** @description Seconds until a new request can succeed */
                        "Retry-After"?: number;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/nodes": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List nodes: every node with its capacity for platform admins; for others only the nodes running their clusters, without capacity */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description OK */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["NodeList"];
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Too many requests from this caller or address (code rate_limited). Retry-After says when to ask again. */
                429: {
                    headers: {
                        /** @description Seconds until a new request can succeed */
                        "Retry-After"?: number;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/capacity": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Room for new clusters, computed by the placement planner for the shape asked: most replicas per shard, most memory per shard for those replicas, most shards of that memory (free memory per node for platform admins only) */
        get: {
            parameters: {
                query?: {
                    /** @description replicas per shard the memory and shard bounds are for (default 1) */
                    replicasPerShard?: number | null;
                    /** @description memory per shard the shard bound is for (default 256) */
                    memoryMbPerShard?: number;
                    /** @description when given, `nodesUsed` tells how many nodes this shape would occupy */
                    shards?: number;
                    /** @description bounds for changing this cluster (the Settings tab): its own instances count as room, and each bound is what its change planner accepts from the cluster's current spec */
                    clusterId?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description OK */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Capacity"];
                    };
                };
                /** @description Invalid request (code validation_failed) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Too many requests from this caller or address (code rate_limited). Retry-After says when to ask again. */
                429: {
                    headers: {
                        /** @description Seconds until a new request can succeed */
                        "Retry-After"?: number;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/events/stream": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Live changes of the caller's organization: server-sent `cluster`, `cluster-deleted`, `operation`, `cluster-activity`, `topology` and `resync` events (session cookie or Bearer token; the stream ends once they no longer hold) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Server-sent events; `event:` is the `type` of the LiveEvent JSON in `data:` */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "text/event-stream": {
                            /** @enum {string} */
                            event: "cluster";
                            /** @description JSON: LiveClusterEvent */
                            data: string;
                            /** @description the last event id seen (this stream sends none) */
                            id?: string;
                            /** @description reconnection delay (ms) */
                            retry?: number;
                        } | {
                            /** @enum {string} */
                            event: "cluster-deleted";
                            /** @description JSON: LiveClusterDeletedEvent */
                            data: string;
                            /** @description the last event id seen (this stream sends none) */
                            id?: string;
                            /** @description reconnection delay (ms) */
                            retry?: number;
                        } | {
                            /** @enum {string} */
                            event: "operation";
                            /** @description JSON: LiveOperationEvent */
                            data: string;
                            /** @description the last event id seen (this stream sends none) */
                            id?: string;
                            /** @description reconnection delay (ms) */
                            retry?: number;
                        } | {
                            /** @enum {string} */
                            event: "cluster-activity";
                            /** @description JSON: LiveClusterActivityEvent */
                            data: string;
                            /** @description the last event id seen (this stream sends none) */
                            id?: string;
                            /** @description reconnection delay (ms) */
                            retry?: number;
                        } | {
                            /** @enum {string} */
                            event: "topology";
                            /** @description JSON: LiveTopologyEvent */
                            data: string;
                            /** @description the last event id seen (this stream sends none) */
                            id?: string;
                            /** @description reconnection delay (ms) */
                            retry?: number;
                        } | {
                            /** @enum {string} */
                            event: "resync";
                            /** @description JSON: LiveResyncEvent */
                            data: string;
                            /** @description the last event id seen (this stream sends none) */
                            id?: string;
                            /** @description reconnection delay (ms) */
                            retry?: number;
                        };
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Too many requests from this caller or address (code rate_limited); or too_many_streams: the caller holds the most event streams allowed. Retry-After says when to ask again. */
                429: {
                    headers: {
                        /** @description Seconds until a new request can succeed */
                        "Retry-After"?: number;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/nodes/{id}/drain": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Drain a node for maintenance (platform admin): primaries switch over, every instance is rebuilt on other nodes */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description OK */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            id: string;
                            name: string;
                            draining: boolean;
                        };
                    };
                };
                /** @description Invalid request (code validation_failed) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Not a platform admin */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Not found (also for resources of another organization) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Too many requests from this caller or address (code rate_limited). Retry-After says when to ask again. */
                429: {
                    headers: {
                        /** @description Seconds until a new request can succeed */
                        "Retry-After"?: number;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/nodes/{id}/undrain": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Return a drained node to placement (platform admin) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description OK */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            id: string;
                            name: string;
                            draining: boolean;
                        };
                    };
                };
                /** @description Invalid request (code validation_failed) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Not a platform admin */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Not found (also for resources of another organization) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Too many requests from this caller or address (code rate_limited). Retry-After says when to ask again. */
                429: {
                    headers: {
                        /** @description Seconds until a new request can succeed */
                        "Retry-After"?: number;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/nodes/{id}/revoke-credential": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Revoke a node agent's credential (platform admin): its requests are refused from now on; the node goes silent and its copies are rebuilt elsewhere */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description OK */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["NodeCredentialRevoked"];
                    };
                };
                /** @description Invalid request (code validation_failed) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Not a platform admin */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Not found (also for resources of another organization) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Too many requests from this caller or address (code rate_limited). Retry-After says when to ask again. */
                429: {
                    headers: {
                        /** @description Seconds until a new request can succeed */
                        "Retry-After"?: number;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/nodes/join-tokens": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Create a one-time join token for a new node (platform admin) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["CreateJoinTokenRequest"];
                };
            };
            responses: {
                /** @description OK */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["JoinToken"];
                    };
                };
                /** @description Invalid request (code validation_failed) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Not a platform admin */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Not found (also for resources of another organization) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Too many requests from this caller or address (code rate_limited). Retry-After says when to ask again. */
                429: {
                    headers: {
                        /** @description Seconds until a new request can succeed */
                        "Retry-After"?: number;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/organizations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Create an organization (platform admin) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["CreateOrganizationRequest"];
                };
            };
            responses: {
                /** @description OK */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["CreateOrganizationResponse"];
                    };
                };
                /** @description Invalid request (code validation_failed) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Not a platform admin */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Not found (also for resources of another organization) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Name taken */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Too many requests from this caller or address (code rate_limited). Retry-After says when to ask again. */
                429: {
                    headers: {
                        /** @description Seconds until a new request can succeed */
                        "Retry-After"?: number;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/users": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Users of the caller's organization and their roles */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description OK */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["UserList"];
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Needs the admin scope */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Too many requests from this caller or address (code rate_limited). Retry-After says when to ask again. */
                429: {
                    headers: {
                        /** @description Seconds until a new request can succeed */
                        "Retry-After"?: number;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        put?: never;
        /** Create a user in the caller's organization */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["CreateUserRequest"];
                };
            };
            responses: {
                /** @description OK */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["User"];
                    };
                };
                /** @description Invalid request (code validation_failed) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Needs the admin scope */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Email taken */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Too many requests from this caller or address (code rate_limited). Retry-After says when to ask again. */
                429: {
                    headers: {
                        /** @description Seconds until a new request can succeed */
                        "Retry-After"?: number;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/users/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /** Change a user's role (bounds the user's tokens at once) */
        patch: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["UpdateUserRequest"];
                };
            };
            responses: {
                /** @description OK */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["User"];
                    };
                };
                /** @description Invalid request (code validation_failed) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Needs the admin scope */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Not found (also for resources of another organization) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Would leave the organization without an admin (code invalid_state) */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Too many requests from this caller or address (code rate_limited). Retry-After says when to ask again. */
                429: {
                    headers: {
                        /** @description Seconds until a new request can succeed */
                        "Retry-After"?: number;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        trace?: never;
    };
    "/v1/tokens": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** API tokens (an admin sees the organization's, others their own), with last use */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description OK */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiTokenList"];
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description A token without the admin scope, or a scope beyond your role */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Too many requests from this caller or address (code rate_limited). Retry-After says when to ask again. */
                429: {
                    headers: {
                        /** @description Seconds until a new request can succeed */
                        "Retry-After"?: number;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        put?: never;
        /** Create an API token with scopes within your own; the secret is returned once */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["CreateTokenRequest"];
                };
            };
            responses: {
                /** @description OK */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiToken"];
                    };
                };
                /** @description Invalid request (code validation_failed) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description A token without the admin scope, or a scope beyond your role */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Too many requests from this caller or address (code rate_limited). Retry-After says when to ask again. */
                429: {
                    headers: {
                        /** @description Seconds until a new request can succeed */
                        "Retry-After"?: number;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/tokens/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One API token (never its secret) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description OK */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiTokenInfo"];
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description A token without the admin scope, or a scope beyond your role */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Not found (also for resources of another organization) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Too many requests from this caller or address (code rate_limited). Retry-After says when to ask again. */
                429: {
                    headers: {
                        /** @description Seconds until a new request can succeed */
                        "Retry-After"?: number;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        /** Revoke an API token (idempotent); it stops working at once */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description OK */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ApiTokenInfo"];
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description A token without the admin scope, or a scope beyond your role */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Not found (also for resources of another organization) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Too many requests from this caller or address (code rate_limited). Retry-After says when to ask again. */
                429: {
                    headers: {
                        /** @description Seconds until a new request can succeed */
                        "Retry-After"?: number;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/audit": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Audit log: who changed what in the organization, newest first */
        get: {
            parameters: {
                query?: {
                    limit?: number;
                    before?: string;
                    /** @description entries whose actor name (email or token name) contains this, any case */
                    actor?: string;
                    /** @description a kind ("cluster.delete") or every kind under a prefix ("cluster", "session") */
                    kind?: "cluster" | "node" | "user" | "token" | "organization" | "benchmark" | "operation" | "session" | "alert-rule" | "notification-channel" | "backup" | "cluster.create" | "cluster.change" | "cluster.switchover" | "cluster.delete" | "cluster.rotate-ca" | "cluster.restart" | "database-user.create" | "database-user.rotate" | "database-user.delete" | "client-certificate.create" | "client-certificate.revoke" | "cluster.slowlog-reset" | "cluster.key-scan" | "backup.start" | "backup.schedule" | "backup.unschedule" | "backup.import" | "backup.upload" | "backup.cancel" | "backup.delete" | "backup.storage-set" | "backup.storage-reset" | "benchmark.start" | "benchmark.cancel" | "operation.pause" | "operation.resume" | "operation.cancel" | "alert-rule.create" | "alert-rule.create-org" | "alert-rule.change" | "alert-rule.delete" | "notification-channel.create" | "notification-channel.delete" | "notification-channel.test" | "node.drain" | "node.undrain" | "node.revoke-credential" | "node.profile" | "node.profile-cancel" | "node.join-token" | "organization.create" | "user.create" | "user.change" | "token.create" | "token.revoke" | "session.sign-in" | "session.sign-in-failed" | "session.sign-out";
                    /** @description entries whose resource id or name contains this, any case */
                    resource?: string;
                    /** @description entries at or after this time */
                    from?: string;
                    /** @description entries before this time */
                    to?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description OK */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["AuditList"];
                    };
                };
                /** @description Invalid request (code validation_failed) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Needs the admin scope */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Too many requests from this caller or address (code rate_limited). Retry-After says when to ask again. */
                429: {
                    headers: {
                        /** @description Seconds until a new request can succeed */
                        "Retry-After"?: number;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/session": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Current session (with `?optional=true`: 200 and `null` when signed out, instead of 401) */
        get: {
            parameters: {
                query?: {
                    optional?: "true" | "false";
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description OK */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Session"] | null;
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Too many requests from this caller or address (code rate_limited). Retry-After says when to ask again. */
                429: {
                    headers: {
                        /** @description Seconds until a new request can succeed */
                        "Retry-After"?: number;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        put?: never;
        /** Sign in (sets an httpOnly session cookie) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["LoginRequest"];
                };
            };
            responses: {
                /** @description OK */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Session"];
                    };
                };
                /** @description Invalid request (code validation_failed) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Wrong email or password (code invalid_credentials) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Too many requests from this caller or address (code rate_limited); or sign_in_locked: too many wrong passwords for this email in a row. Retry-After says when to ask again. */
                429: {
                    headers: {
                        /** @description Seconds until a new request can succeed */
                        "Retry-After"?: number;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        /** Sign out */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Signed out */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Too many requests from this caller or address (code rate_limited). Retry-After says when to ask again. */
                429: {
                    headers: {
                        /** @description Seconds until a new request can succeed */
                        "Retry-After"?: number;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/agent/register": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Agent: register with a one-time join token */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["RegisterAgentRequest"];
                };
            };
            responses: {
                /** @description OK */
                201: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["RegisterAgentResponse"];
                    };
                };
                /** @description Invalid request (code validation_failed) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Join token invalid, used or expired (code join_token_invalid) */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Too many requests from this caller or address (code rate_limited). Retry-After says when to ask again. */
                429: {
                    headers: {
                        /** @description Seconds until a new request can succeed */
                        "Retry-After"?: number;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/agent/status": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Agent: report observed node and engine status */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["AgentStatusReport"];
                };
            };
            responses: {
                /** @description Stored */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Invalid request (code validation_failed) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/agent/endpoints": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Agent: the cluster endpoints to serve and the live instances they forward to */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description OK */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["AgentEndpoints"];
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/agent/tasks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Agent: long-poll for the next task and lease it */
        get: {
            parameters: {
                query?: {
                    waitMs?: string;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description OK */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["LeaseTaskResponse"];
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/agent/tasks/{id}/heartbeat": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Agent: extend a task's lease (the reply may ask the task to stop early) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description OK */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["HeartbeatResponse"];
                    };
                };
                /** @description Invalid request (code validation_failed) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description The role or token lacks the scope this operation needs (code forbidden) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Not found (also for resources of another organization) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Lease lost */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/agent/tasks/{id}/progress": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Agent: report a running task's progress */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["TaskProgressRequest"];
                };
            };
            responses: {
                /** @description Recorded */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Invalid request (code validation_failed) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description The role or token lacks the scope this operation needs (code forbidden) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Not found (also for resources of another organization) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Lease lost */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/agent/tasks/{id}/complete": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Agent: report a task outcome */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["CompleteTaskRequest"];
                };
            };
            responses: {
                /** @description Recorded */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Invalid request (code validation_failed) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description The role or token lacks the scope this operation needs (code forbidden) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Not found (also for resources of another organization) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/clusters/{id}/metrics": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Metric history of a cluster, by cluster, shard or instance (hot window, 1 s points or 1 min rollups) */
        get: {
            parameters: {
                query: {
                    /** @description comma-separated: ops, ops_read, ops_write, ops_other, latency_p50, latency_p95, latency_p99, latency_p999, clients, memory_used, memory_max, keys, evictions, expirations, hits, misses, repl_lag, net_in, net_out, cpu */
                    metric: string;
                    /** @description RFC 3339, unix seconds or relative ("-1h"); default 5 minutes before `to` */
                    from?: string;
                    /** @description default now */
                    to?: string;
                    /** @description seconds per point; default keeps ~600 points */
                    step?: string;
                    by?: "cluster" | "shard" | "instance";
                };
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description OK */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["MetricsResult"];
                    };
                };
                /** @description Invalid request (code validation_failed) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description The role or token lacks the scope this operation needs (code forbidden) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Not found (also for resources of another organization) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Too many requests from this caller or address (code rate_limited). Retry-After says when to ask again. */
                429: {
                    headers: {
                        /** @description Seconds until a new request can succeed */
                        "Retry-After"?: number;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/clusters/{id}/metrics/stream": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Live metrics: server-sent `sample` events, one point per series per second */
        get: {
            parameters: {
                query?: {
                    metric?: string;
                    by?: "cluster" | "shard" | "instance";
                };
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Server-sent `sample` events (`id:` the unix second, `data:` a MetricsStreamEvent) */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "text/event-stream": {
                            /** @enum {string} */
                            event: "sample";
                            /** @description JSON: MetricsStreamEvent */
                            data: string;
                            /** @description event id */
                            id?: string;
                            /** @description reconnection delay (ms) */
                            retry?: number;
                        };
                    };
                };
                /** @description Invalid request (code validation_failed) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description The role or token lacks the scope this operation needs (code forbidden) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Not found (also for resources of another organization) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Too many requests from this caller or address (code rate_limited); or too_many_streams: the caller holds the most event streams allowed. Retry-After says when to ask again. */
                429: {
                    headers: {
                        /** @description Seconds until a new request can succeed */
                        "Retry-After"?: number;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/nodes/{id}/metrics": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Host metric history of a node (cpu, memory, disk); platform admins only */
        get: {
            parameters: {
                query?: {
                    /** @description comma-separated: cpu, memory_total, memory_available, memory_used, disk_total, disk_free, disk_used */
                    metric?: string;
                    from?: string;
                    to?: string;
                    step?: string;
                };
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description OK */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["MetricsResult"];
                    };
                };
                /** @description Invalid request (code validation_failed) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Not a platform admin */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Not found (also for resources of another organization) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Too many requests from this caller or address (code rate_limited). Retry-After says when to ask again. */
                429: {
                    headers: {
                        /** @description Seconds until a new request can succeed */
                        "Retry-After"?: number;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/metrics/clusters": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Current ops/s, p99 and memory of the caller's clusters */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description OK */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["ClusterCurrentMetricsList"];
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Too many requests from this caller or address (code rate_limited). Retry-After says when to ask again. */
                429: {
                    headers: {
                        /** @description Seconds until a new request can succeed */
                        "Retry-After"?: number;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/metrics/nodes": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Current CPU, memory and disk of every node (platform admins; an empty list for others: host load includes other organizations) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description OK */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["NodeCurrentMetricsList"];
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Too many requests from this caller or address (code rate_limited). Retry-After says when to ask again. */
                429: {
                    headers: {
                        /** @description Seconds until a new request can succeed */
                        "Retry-After"?: number;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/agent/metrics": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Agent: push a batch of per-second instance and host samples */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["AgentMetricsBatch"];
                };
            };
            responses: {
                /** @description OK */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            accepted: number;
                            rejected: number;
                        };
                    };
                };
                /** @description Invalid request (code validation_failed) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/metrics": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Prometheus exposition of cluster, shard, instance and node series and the control plane's health (scrape token as Bearer) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description text/plain; version=0.0.4 */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "text/plain": string;
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/clusters/{id}/benchmarks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A cluster's benchmarks, newest first */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description OK */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["BenchmarkList"];
                    };
                };
                /** @description Invalid request (code validation_failed) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description The role or token lacks the scope this operation needs (code forbidden) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Not found (also for resources of another organization) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Too many requests from this caller or address (code rate_limited). Retry-After says when to ask again. */
                429: {
                    headers: {
                        /** @description Seconds until a new request can succeed */
                        "Retry-After"?: number;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        put?: never;
        /** Start a benchmark on a cluster (one at a time per cluster) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["BenchmarkRequest"];
                };
            };
            responses: {
                /** @description Accepted */
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Benchmark"];
                    };
                };
                /** @description Invalid request (code validation_failed) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description The role or token lacks the scope this operation needs (code forbidden) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Not found (also for resources of another organization) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description A benchmark is already running, or the cluster is not ready */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Too many requests from this caller or address (code rate_limited). Retry-After says when to ask again. */
                429: {
                    headers: {
                        /** @description Seconds until a new request can succeed */
                        "Retry-After"?: number;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/clusters/{id}/benchmark-presets": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One-click presets sized to the cluster */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description OK */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            items: {
                                id: string;
                                title: string;
                                description: string;
                                request: components["schemas"]["BenchmarkRequest"];
                                /** @description what the run does to the cluster, in plain words */
                                impact: string;
                                /** @description it interrupts service (kills a primary): the console asks for confirmation */
                                disruptive: boolean;
                            }[];
                        };
                    };
                };
                /** @description Invalid request (code validation_failed) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description The role or token lacks the scope this operation needs (code forbidden) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Not found (also for resources of another organization) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Too many requests from this caller or address (code rate_limited). Retry-After says when to ask again. */
                429: {
                    headers: {
                        /** @description Seconds until a new request can succeed */
                        "Retry-After"?: number;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/benchmarks/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A benchmark: state, progress and (when finished) its result */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description OK */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Benchmark"];
                    };
                };
                /** @description Invalid request (code validation_failed) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description The role or token lacks the scope this operation needs (code forbidden) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Not found (also for resources of another organization) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Too many requests from this caller or address (code rate_limited). Retry-After says when to ask again. */
                429: {
                    headers: {
                        /** @description Seconds until a new request can succeed */
                        "Retry-After"?: number;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/benchmarks/{id}/stream": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Live progress (SSE `progress` events with per-second points; `end` when finished) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Server-sent `progress` events (a BenchmarkProgressEvent), then one `end` */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "text/event-stream": {
                            /** @enum {string} */
                            event: "progress";
                            /** @description JSON: BenchmarkProgressEvent */
                            data: string;
                            /** @description the last event id seen (this stream sends none) */
                            id?: string;
                            /** @description reconnection delay (ms) */
                            retry?: number;
                        } | {
                            /** @enum {string} */
                            event: "end";
                            /** @description JSON: BenchmarkStreamEnd */
                            data: string;
                            /** @description the last event id seen (this stream sends none) */
                            id?: string;
                            /** @description reconnection delay (ms) */
                            retry?: number;
                        };
                    };
                };
                /** @description Invalid request (code validation_failed) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description The role or token lacks the scope this operation needs (code forbidden) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Not found (also for resources of another organization) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Too many requests from this caller or address (code rate_limited); or too_many_streams: the caller holds the most event streams allowed. Retry-After says when to ask again. */
                429: {
                    headers: {
                        /** @description Seconds until a new request can succeed */
                        "Retry-After"?: number;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/benchmarks/{id}/cancel": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Cancel a running benchmark: every worker stops */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Accepted */
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["Benchmark"];
                    };
                };
                /** @description Invalid request (code validation_failed) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description The role or token lacks the scope this operation needs (code forbidden) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Not found (also for resources of another organization) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Already finished */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Too many requests from this caller or address (code rate_limited). Retry-After says when to ask again. */
                429: {
                    headers: {
                        /** @description Seconds until a new request can succeed */
                        "Retry-After"?: number;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/benchmarks/{id}/export": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Export: JSON with HdrHistogram logs (default) or CSV (?format=csv) */
        get: {
            parameters: {
                query?: {
                    format?: "json" | "csv";
                };
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description JSON or CSV */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": Record<string, never>;
                        "text/csv": string;
                    };
                };
                /** @description Invalid request (code validation_failed) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description The role or token lacks the scope this operation needs (code forbidden) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Not found (also for resources of another organization) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Too many requests from this caller or address (code rate_limited). Retry-After says when to ask again. */
                429: {
                    headers: {
                        /** @description Seconds until a new request can succeed */
                        "Retry-After"?: number;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/agent/tasks/{id}/benchmark": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Agent: a benchmark worker's report, answered with its next command */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["BenchmarkWorkerReport"];
                };
            };
            responses: {
                /** @description OK */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["BenchmarkWorkerCommand"];
                    };
                };
                /** @description Invalid request (code validation_failed) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description The role or token lacks the scope this operation needs (code forbidden) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Not found (also for resources of another organization) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/nodes/{id}/profiles": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A node's disk profiles, newest first (platform admin) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description OK */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["DiskProfileList"];
                    };
                };
                /** @description Invalid request (code validation_failed) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Not a platform admin */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Not found (also for resources of another organization) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Too many requests from this caller or address (code rate_limited). Retry-After says when to ask again. */
                429: {
                    headers: {
                        /** @description Seconds until a new request can succeed */
                        "Retry-After"?: number;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        put?: never;
        /** Profile a node's disk with fio through its agent (platform admin; one profile per node at a time) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["DiskProfileRequest"];
                };
            };
            responses: {
                /** @description Accepted; follow it at Location */
                202: {
                    headers: {
                        Location?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["DiskProfileAccepted"];
                    };
                };
                /** @description Invalid request (code validation_failed) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Not a platform admin */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Not found (also for resources of another organization) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description A profile is already running on the node (code conflict), the node is offline (invalid_state), or clusters on it are busy and `force` is not set (node_busy) */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Less free space than twice the test files (code insufficient_space, naming how much is needed) */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Too many requests from this caller or address (code rate_limited). Retry-After says when to ask again. */
                429: {
                    headers: {
                        /** @description Seconds until a new request can succeed */
                        "Retry-After"?: number;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/profiles/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A disk profile: status, node facts, results per workload (IOPS, MB/s, latency percentiles in microseconds) and durability advice */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description OK */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["DiskProfile"];
                    };
                };
                /** @description Invalid request (code validation_failed) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Not a platform admin */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Not found (also for resources of another organization) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Too many requests from this caller or address (code rate_limited). Retry-After says when to ask again. */
                429: {
                    headers: {
                        /** @description Seconds until a new request can succeed */
                        "Retry-After"?: number;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/profiles/{id}/stream": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Live progress (SSE `progress` events, with each finished workload and the load of the clusters on the node; `end` when finished) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Server-sent `progress` events (a DiskProfileProgressEvent), then one `end` */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "text/event-stream": {
                            /** @enum {string} */
                            event: "progress";
                            /** @description JSON: DiskProfileProgressEvent */
                            data: string;
                            /** @description the last event id seen (this stream sends none) */
                            id?: string;
                            /** @description reconnection delay (ms) */
                            retry?: number;
                        } | {
                            /** @enum {string} */
                            event: "end";
                            /** @description JSON: DiskProfileStreamEnd */
                            data: string;
                            /** @description the last event id seen (this stream sends none) */
                            id?: string;
                            /** @description reconnection delay (ms) */
                            retry?: number;
                        };
                    };
                };
                /** @description Invalid request (code validation_failed) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Not a platform admin */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Not found (also for resources of another organization) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Too many requests from this caller or address (code rate_limited); or too_many_streams: the caller holds the most event streams allowed. Retry-After says when to ask again. */
                429: {
                    headers: {
                        /** @description Seconds until a new request can succeed */
                        "Retry-After"?: number;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/profiles/{id}/cancel": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Cancel a running disk profile: the agent kills fio and removes its files */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Accepted */
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["DiskProfile"];
                    };
                };
                /** @description Invalid request (code validation_failed) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Not a platform admin */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Not found (also for resources of another organization) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Already finished */
                409: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Too many requests from this caller or address (code rate_limited). Retry-After says when to ask again. */
                429: {
                    headers: {
                        /** @description Seconds until a new request can succeed */
                        "Retry-After"?: number;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/durability-advice": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Each durability level's predicted write ceiling, from the newest Redis disk profile of every node (`fleet`: the lowest over them) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description OK */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["DurabilityAdviceList"];
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Too many requests from this caller or address (code rate_limited). Retry-After says when to ask again. */
                429: {
                    headers: {
                        /** @description Seconds until a new request can succeed */
                        "Retry-After"?: number;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/agent/tasks/{id}/disk-profile": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Agent: a disk profile's progress, facts and results, answered with whether to stop */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["DiskProfileReport"];
                };
            };
            responses: {
                /** @description OK */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["DiskProfileCommand"];
                    };
                };
                /** @description Invalid request (code validation_failed) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description The role or token lacks the scope this operation needs (code forbidden) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Not found (also for resources of another organization) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/clusters/{id}/alert-rules": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A cluster's alert rules (and the organization's, which apply to it) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description OK */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["AlertRuleList"];
                    };
                };
                /** @description Invalid request (code validation_failed) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description The role or token lacks the scope this operation needs (code forbidden) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Not found (also for resources of another organization) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Too many requests from this caller or address (code rate_limited). Retry-After says when to ask again. */
                429: {
                    headers: {
                        /** @description Seconds until a new request can succeed */
                        "Retry-After"?: number;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        put?: never;
        /** Add an alert rule to a cluster */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["CreateAlertRuleRequest"];
                };
            };
            responses: {
                /** @description OK */
                201: {
                    headers: {
                        Location?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["AlertRule"];
                    };
                };
                /** @description Invalid request (code validation_failed) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description The role or token lacks the scope this operation needs (code forbidden) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Not found (also for resources of another organization) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description channelIds names a channel that does not exist (code validation_failed, field channelIds) */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Too many requests from this caller or address (code rate_limited). Retry-After says when to ask again. */
                429: {
                    headers: {
                        /** @description Seconds until a new request can succeed */
                        "Retry-After"?: number;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/clusters/{id}/alert-rules/prometheus": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A cluster's alert rules as a Prometheus rule file (YAML) over Strata's /metrics names */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description application/yaml */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/yaml": components["schemas"]["PrometheusRuleFile"];
                    };
                };
                /** @description Invalid request (code validation_failed) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description The role or token lacks the scope this operation needs (code forbidden) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Not found (also for resources of another organization) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Too many requests from this caller or address (code rate_limited). Retry-After says when to ask again. */
                429: {
                    headers: {
                        /** @description Seconds until a new request can succeed */
                        "Retry-After"?: number;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/alert-rules": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Every alert rule of the organization */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description OK */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["AlertRuleList"];
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Too many requests from this caller or address (code rate_limited). Retry-After says when to ask again. */
                429: {
                    headers: {
                        /** @description Seconds until a new request can succeed */
                        "Retry-After"?: number;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        put?: never;
        /** Add an organization alert rule (evaluated for each of its clusters) */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["CreateAlertRuleRequest"];
                };
            };
            responses: {
                /** @description OK */
                201: {
                    headers: {
                        Location?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["AlertRule"];
                    };
                };
                /** @description Invalid request (code validation_failed) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description The role or token lacks the scope this operation needs (code forbidden) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Not found (also for resources of another organization) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description channelIds names a channel that does not exist (code validation_failed, field channelIds) */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Too many requests from this caller or address (code rate_limited). Retry-After says when to ask again. */
                429: {
                    headers: {
                        /** @description Seconds until a new request can succeed */
                        "Retry-After"?: number;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/alert-rules/prometheus": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Every alert rule of the organization as a Prometheus rule file (YAML) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description application/yaml */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/yaml": components["schemas"]["PrometheusRuleFile"];
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Too many requests from this caller or address (code rate_limited). Retry-After says when to ask again. */
                429: {
                    headers: {
                        /** @description Seconds until a new request can succeed */
                        "Retry-After"?: number;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/alert-rules/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get an alert rule */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description OK */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["AlertRule"];
                    };
                };
                /** @description Invalid request (code validation_failed) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description The role or token lacks the scope this operation needs (code forbidden) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Not found (also for resources of another organization) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Too many requests from this caller or address (code rate_limited). Retry-After says when to ask again. */
                429: {
                    headers: {
                        /** @description Seconds until a new request can succeed */
                        "Retry-After"?: number;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        /** Delete an alert rule (its firing alerts resolve, its history stays) */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description OK */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Invalid request (code validation_failed) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description The role or token lacks the scope this operation needs (code forbidden) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Not found (also for resources of another organization) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Too many requests from this caller or address (code rate_limited). Retry-After says when to ask again. */
                429: {
                    headers: {
                        /** @description Seconds until a new request can succeed */
                        "Retry-After"?: number;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        /** Change an alert rule's name, threshold, duration, channels or whether it is enabled */
        patch: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["UpdateAlertRuleRequest"];
                };
            };
            responses: {
                /** @description OK */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["AlertRule"];
                    };
                };
                /** @description Invalid request (code validation_failed) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description The role or token lacks the scope this operation needs (code forbidden) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Not found (also for resources of another organization) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Too many requests from this caller or address (code rate_limited). Retry-After says when to ask again. */
                429: {
                    headers: {
                        /** @description Seconds until a new request can succeed */
                        "Retry-After"?: number;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        trace?: never;
    };
    "/v1/alerts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Alerts of the organization, newest first: firing and resolved (history) */
        get: {
            parameters: {
                query?: {
                    state?: "firing" | "resolved";
                    clusterId?: string;
                    limit?: number;
                };
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description OK */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["AlertList"];
                    };
                };
                /** @description Invalid request (code validation_failed) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Too many requests from this caller or address (code rate_limited). Retry-After says when to ask again. */
                429: {
                    headers: {
                        /** @description Seconds until a new request can succeed */
                        "Retry-After"?: number;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/notification-channels": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The organization's notification channels (secrets never shown) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description OK */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["NotificationChannelList"];
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Too many requests from this caller or address (code rate_limited). Retry-After says when to ask again. */
                429: {
                    headers: {
                        /** @description Seconds until a new request can succeed */
                        "Retry-After"?: number;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        put?: never;
        /** Add a notification channel: a webhook (HMAC-signed JSON or Slack) or e-mail */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody: {
                content: {
                    "application/json": components["schemas"]["CreateNotificationChannelRequest"];
                };
            };
            responses: {
                /** @description OK */
                201: {
                    headers: {
                        Location?: string;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["NotificationChannel"];
                    };
                };
                /** @description Invalid request (code validation_failed) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description The role or token lacks the scope this operation needs (code forbidden) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Not found (also for resources of another organization) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description e-mail while the operator has configured no SMTP server (code smtp_not_configured, field type) */
                422: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Too many requests from this caller or address (code rate_limited). Retry-After says when to ask again. */
                429: {
                    headers: {
                        /** @description Seconds until a new request can succeed */
                        "Retry-After"?: number;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/notification-channels/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Get a notification channel (its secret is never shown) */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description OK */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["NotificationChannel"];
                    };
                };
                /** @description Invalid request (code validation_failed) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description The role or token lacks the scope this operation needs (code forbidden) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Not found (also for resources of another organization) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Too many requests from this caller or address (code rate_limited). Retry-After says when to ask again. */
                429: {
                    headers: {
                        /** @description Seconds until a new request can succeed */
                        "Retry-After"?: number;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        /** Delete a notification channel (rules stop naming it) */
        delete: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description OK */
                204: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content?: never;
                };
                /** @description Invalid request (code validation_failed) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description The role or token lacks the scope this operation needs (code forbidden) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Not found (also for resources of another organization) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Too many requests from this caller or address (code rate_limited). Retry-After says when to ask again. */
                429: {
                    headers: {
                        /** @description Seconds until a new request can succeed */
                        "Retry-After"?: number;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/notification-channels/{id}/test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Send a test notification; follow it in the delivery log */
        post: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description Queued */
                202: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["NotificationDelivery"];
                    };
                };
                /** @description Invalid request (code validation_failed) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description The role or token lacks the scope this operation needs (code forbidden) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Not found (also for resources of another organization) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Too many requests from this caller or address (code rate_limited). Retry-After says when to ask again. */
                429: {
                    headers: {
                        /** @description Seconds until a new request can succeed */
                        "Retry-After"?: number;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/notification-channels/{id}/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A channel's delivery log, newest first: every attempt with its status code or error */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path: {
                    id: string;
                };
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description OK */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": components["schemas"]["NotificationDeliveryList"];
                    };
                };
                /** @description Invalid request (code validation_failed) */
                400: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Missing or invalid credentials */
                401: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description The role or token lacks the scope this operation needs (code forbidden) */
                403: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Not found (also for resources of another organization) */
                404: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
                /** @description Too many requests from this caller or address (code rate_limited). Retry-After says when to ask again. */
                429: {
                    headers: {
                        /** @description Seconds until a new request can succeed */
                        "Retry-After"?: number;
                        [name: string]: unknown;
                    };
                    content: {
                        "application/problem+json": components["schemas"]["Problem"];
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/healthz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Liveness and database reachability */
        get: {
            parameters: {
                query?: never;
                header?: never;
                path?: never;
                cookie?: never;
            };
            requestBody?: never;
            responses: {
                /** @description OK */
                200: {
                    headers: {
                        [name: string]: unknown;
                    };
                    content: {
                        "application/json": {
                            /** @enum {string} */
                            status: "ok";
                        };
                    };
                };
            };
        };
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        LiveClusterEvent: {
            /** @enum {string} */
            type: "cluster";
            cluster: components["schemas"]["Cluster"];
        };
        Cluster: {
            /** Format: uuid */
            id: string;
            name: string;
            /** Format: uuid */
            organizationId: string;
            spec: components["schemas"]["ClusterSpec"];
            /** @description bumped by every spec change */
            generation: number;
            /** @description the generation the reconciler last brought the cluster to */
            observedGeneration: number;
            status: {
                /** @enum {string} */
                phase: "provisioning" | "ready" | "updating" | "degraded" | "deleting" | "failed";
                conditions: components["schemas"]["Condition"][];
            };
            /** @description RFC 3339 timestamp */
            createdAt: string;
            /** @description RFC 3339 timestamp */
            updatedAt: string;
        };
        ClusterSpec: {
            shards: number;
            replicasPerShard: number;
            memoryMbPerShard: number;
            /**
             * @description none: in memory only; aof-everysec: append-only file fsynced every second; aof-always: fsync on every write
             * @enum {string}
             */
            durability: "none" | "aof-everysec" | "aof-always";
            /** @enum {string} */
            evictionPolicy: "noeviction" | "allkeys-lru" | "allkeys-lfu" | "allkeys-random" | "volatile-lru" | "volatile-lfu" | "volatile-random" | "volatile-ttl";
            /**
             * @description write fencing. on: a primary accepts a write only while one of its replicas acknowledged the replication stream within the last 2 s (min-replicas-to-write 1, min-replicas-max-lag 2), so a primary cut off from its replicas refuses writes (NOREPLICAS) within about 3 s instead of acknowledging writes a failover on the other side would discard; needs replicasPerShard >= 1, and a shard refuses writes while none of its replicas is connected (after a failover, until the replica is rebuilt). off: Redis defaults
             * @enum {string}
             */
            fencing: "off" | "on";
            /**
             * @description how hard a slot migration may press on the primaries it moves keys between: gentle (smallest steps, one source at a time, rests whenever a primary is busy), balanced (short steps, sources in parallel, rests when a primary is busy), fast (long steps, never rests: requests on moving shards may wait several ms)
             * @enum {string}
             */
            migrationPriority: "gentle" | "balanced" | "fast";
            /**
             * @description the engine: 7 is Redis 7.0 (Debian's redis-server); valkey-8 is Valkey 8 (Redis 7.2's protocol and cluster bus, valkey-server). The same clients and commands work with both. Set at create
             * @enum {string}
             */
            engineVersion: "7" | "valkey-8";
            /**
             * @description off: plain text; required: TLS only, on the client port and replication (and the cluster bus of a cluster created with TLS), with certificates from the cluster's own CA; preferred (valkey-8, by PATCH): both served while clients move, the protocol served before on the instances' ports and the other on a second port per instance
             * @enum {string}
             */
            tls: "off" | "preferred" | "required";
            /**
             * @description client certificates (mTLS), only with tls required. none: clients log in with a password over TLS and present no certificate; optional: a client that presents a certificate must present a valid one from the cluster, one without logs in on its password alone (tls-auth-clients optional: roll certificates out before requiring them); required: every connection must also present a certificate signed by the cluster's CA (POST /v1/clusters/{id}/client-certificates issues them), else the TLS handshake is refused (tls-auth-clients yes)
             * @enum {string}
             */
            tlsClientAuth: "none" | "optional" | "required";
            maintenanceWindow: components["schemas"]["MaintenanceWindow"];
        };
        /** @description weekly window (UTC) in which changes that restart engines run (null: none; they run when asked) */
        MaintenanceWindow: {
            /**
             * @description the day (UTC) the window starts on
             * @enum {string}
             */
            dayOfWeek: "monday" | "tuesday" | "wednesday" | "thursday" | "friday" | "saturday" | "sunday";
            /** @description when it starts, HH:MM UTC */
            startTime: string;
            /** @description how long it stays open (30 minutes to 24 hours; it may run past midnight and from Sunday into Monday) */
            durationMinutes: number;
        } | null;
        Condition: {
            /** @description e.g. InstancesRunning, ClusterFormed, Healthy */
            type: string;
            /** @enum {string} */
            status: "true" | "false" | "unknown";
            reason: string;
            message: string;
            /** @description RFC 3339 timestamp */
            lastTransitionAt: string;
        };
        LiveClusterDeletedEvent: {
            /** @enum {string} */
            type: "cluster-deleted";
            /** Format: uuid */
            clusterId: string;
        };
        LiveOperationEvent: {
            /** @enum {string} */
            type: "operation";
            operation: components["schemas"]["Operation"];
        };
        Operation: {
            /** Format: uuid */
            id: string;
            /** Format: uuid */
            clusterId: string;
            /** @enum {string} */
            kind: "create-cluster" | "delete-cluster" | "update-cluster" | "switchover" | "restart-cluster" | "rotate-ca" | "tls-switch";
            /** @enum {string} */
            state: "pending" | "running" | "succeeded" | "failed" | "cancelled";
            progress: number;
            steps: components["schemas"]["OperationStep"][];
            error?: {
                code: string;
                message: string;
            };
            migration?: components["schemas"]["MigrationProgress"];
            /** @description update-cluster: paused by the user (every slot has one owner meanwhile) */
            paused?: boolean;
            /** @description update-cluster: cancel asked; slots move back, added instances are removed */
            cancelRequested?: boolean;
            /** @description an operation waiting for the cluster's maintenance window (state pending): when that window opens */
            startsAt?: string;
            /** @description RFC 3339 timestamp */
            createdAt: string;
            /** @description RFC 3339 timestamp */
            updatedAt: string;
            /** @description RFC 3339 timestamp */
            finishedAt?: string;
        };
        OperationStep: {
            /** @description stable step id, e.g. start-instances */
            name: string;
            /** @description human-readable step title */
            title: string;
            /** @enum {string} */
            state: "pending" | "running" | "succeeded" | "failed";
            detail?: string;
            /** @description RFC 3339 timestamp */
            startedAt?: string;
            /** @description RFC 3339 timestamp */
            finishedAt?: string;
        };
        /** @description update-cluster: slot migration progress while slots move */
        MigrationProgress: {
            slotsDone: number;
            slotsTotal: number;
            keysMoved: number;
            /** @description approximate: keys moved times the bytes a key takes on its source (used memory / keys) */
            bytesMoved: number;
            /** @description over the last few seconds */
            keysPerSec: number;
            etaSeconds: number | null;
            currentSlot: number | null;
        };
        LiveClusterActivityEvent: {
            /** @enum {string} */
            type: "cluster-activity";
            /** Format: uuid */
            clusterId: string;
            /** @description type of the cluster event just recorded */
            eventType: string;
        };
        /** @description instances were placed, replaced or changed role: re-read the topology */
        LiveTopologyEvent: {
            /** @enum {string} */
            type: "topology";
            /** Format: uuid */
            clusterId: string;
        };
        LiveResyncEvent: {
            /** @enum {string} */
            type: "resync";
        };
        MetricsStreamEvent: {
            /** @description unix seconds of the point */
            ts: number;
            series: {
                metric: string;
                scope: ("cluster" | "shard" | "instance") | "node";
                shard: number | null;
                instanceId: string | null;
                /** @enum {string|null} */
                role: "primary" | "replica" | null;
                value: number | null;
            }[];
        };
        BenchmarkProgressEvent: {
            /** @enum {string} */
            state: "pending" | "loading" | "warmup" | "running" | "succeeded" | "failed" | "cancelled";
            progress: number;
            detail?: string;
            point?: components["schemas"]["BenchmarkPoint"];
        };
        BenchmarkPoint: {
            /** @description seconds since the steady phase began (negative: warm-up) */
            t: number;
            ops: number;
            p50: number;
            p99: number;
            errors: number;
            /** @description acknowledged writes (update, insert, set, read-modify-write) in this second */
            writes?: number;
        };
        BenchmarkStreamEnd: Record<string, never>;
        DiskProfileProgressEvent: {
            /** @enum {string} */
            status: "running" | "completed" | "failed" | "cancelled";
            progress: number;
            detail: string | null;
            result?: components["schemas"]["ProfileResult"];
            /** @description load of the clusters on the node this second */
            clusters?: {
                /** Format: uuid */
                clusterId: string;
                clusterName: string;
                opsPerSec: number | null;
                latencyP99Us: number | null;
            }[];
        };
        /** @description a workload that just finished */
        ProfileResult: {
            /** @description the workload's position in the profile */
            index: number;
            workload: components["schemas"]["ProfileWorkload"];
            /** @description I/Os per second, reads and writes */
            iops: number;
            /** @description MB/s (10^6 bytes), reads and writes */
            mbPerSec: number;
            ios: number;
            bytes: number;
            runtimeMs: number;
            latency: components["schemas"]["ProfileLatency"];
            read?: {
                iops: number;
                /** @description MB/s (10^6 bytes) */
                mbPerSec: number;
                ios: number;
                bytes: number;
                latency: components["schemas"]["ProfileLatency"] & unknown;
            };
            write?: {
                iops: number;
                /** @description MB/s (10^6 bytes) */
                mbPerSec: number;
                ios: number;
                bytes: number;
                latency: components["schemas"]["ProfileLatency"] & unknown;
            };
            /** @description fsync/fdatasync calls and their latency */
            sync?: {
                count: number;
                latency: components["schemas"]["ProfileLatency"];
                /** @description power-of-two buckets (microseconds), non-empty ones */
                histogram: {
                    /** @description upper bound of the bucket, microseconds */
                    leUs: number;
                    count: number;
                }[];
            };
            /** @description fio failed this workload */
            error?: string;
        };
        ProfileWorkload: {
            /** @description a label for charts and exports (default: derived from the parameters) */
            name?: string;
            /**
             * @default read
             * @enum {string}
             */
            operation: "read" | "write" | "mixed";
            /**
             * @description mixed: the share of reads
             * @default 50
             */
            readPercent: number;
            /**
             * @default random
             * @enum {string}
             */
            pattern: "random" | "sequential";
            /**
             * @description random: how offsets are drawn
             * @default uniform
             * @enum {string}
             */
            distribution: "uniform" | "normal" | "zipf" | "pareto";
            /** @description zipf: theta (default 1.2, not 1); pareto: power, 0 < h < 1 (default 0.2); normal: standard deviation in % of the file (default 10) */
            distributionParam?: number;
            /**
             * @description sequential: forward or backward through the file
             * @default forward
             * @enum {string}
             */
            direction: "forward" | "backward";
            /**
             * @description sequential: bytes skipped between blocks
             * @default 0
             */
            strideBytes: number;
            /**
             * @description bytes per I/O
             * @default 4096
             */
            blockSize: number;
            /**
             * @description pread: pread/pwrite; read: read/write; libaio and io_uring: asynchronous, with a queue depth; mmap: memory-mapped
             * @default pread
             * @enum {string}
             */
            ioCall: "pread" | "read" | "libaio" | "io_uring" | "mmap";
            /**
             * @description O_DIRECT: bypass the page cache (buffered I/O uses what the cache holds: a test file smaller than memory is cached once laid out)
             * @default false
             */
            direct: boolean;
            /**
             * @description writes: fsync or fdatasync every flushEvery writes, or O_SYNC on every write
             * @default none
             * @enum {string}
             */
            flush: "none" | "fsync" | "fdatasync" | "o-sync";
            /**
             * @description fsync/fdatasync: writes between two syncs
             * @default 1
             */
            flushEvery: number;
            /**
             * @description threads running this workload, each with its own queue
             * @default 1
             */
            threads: number;
            /**
             * @description I/Os in flight per thread (libaio and io_uring)
             * @default 1
             */
            queueDepth: number;
            /**
             * @description bytes in the test file (space utilisation)
             * @default 67108864
             */
            fileSize: number;
            /**
             * @description writes extend a fresh, unallocated file as an append-only log does (wrapping to its start once it reaches fileSize)
             * @default false
             */
            append: boolean;
            /**
             * @description no access-time updates on the test file (O_NOATIME, set as the file attribute A)
             * @default false
             */
            noatime: boolean;
            /** @default 5 */
            durationSec: number;
            /** @description workloads with the same group run at the same time; without one a workload runs alone */
            group?: number;
        };
        /** @description completion latency of every I/O, microseconds */
        ProfileLatency: {
            /** @description the fastest I/O: what the device (or the page cache) answers in when nothing else waits */
            min?: number;
            mean: number;
            p50: number;
            p90: number;
            p99: number;
            p999: number;
            max: number;
        };
        DiskProfileStreamEnd: {
            /** @enum {string} */
            status: "running" | "completed" | "failed" | "cancelled";
        };
        ClusterWithOperation: {
            cluster: components["schemas"]["Cluster"];
            operation: components["schemas"]["Operation"];
        };
        Problem: {
            type: string;
            title: string;
            status: number;
            /** @enum {string} */
            code: "validation_failed" | "unauthorized" | "forbidden" | "not_found" | "conflict" | "name_taken" | "unplaceable" | "invalid_state" | "tls_off" | "not_revocable" | "csrf_failed" | "invalid_credentials" | "join_token_invalid" | "payload_too_large" | "request_timeout" | "unsupported_media_type" | "operation_in_progress" | "does_not_fit" | "insufficient_space" | "node_busy" | "would_lose_data" | "backup_in_progress" | "backup_engine_unsupported" | "backup_not_completed" | "backup_corrupted" | "rdb_version_unsupported" | "rdb_databases_unsupported" | "backup_running" | "backup_in_use" | "storage_invalid" | "storage_unavailable" | "restore_memory_too_small" | "import_unreachable" | "import_not_redis" | "import_auth_failed" | "not_yet_supported" | "engine_change_unsupported" | "tls_switch_needs_valkey" | "rate_limited" | "too_many_streams" | "sign_in_locked" | "smtp_not_configured" | "no_maintenance_window" | "scan_in_progress" | "internal";
            detail?: string;
            instance?: string;
            errors?: {
                /** @description Dotted path of the offending field, e.g. "shards" */
                field: string;
                message: string;
            }[];
            /**
             * Format: uuid
             * @description operation_in_progress: the operation that runs now
             */
            operationId?: string;
        };
        CreateClusterRequest: {
            name: string;
            shards: number;
            replicasPerShard: number;
            memoryMbPerShard?: number;
            /**
             * @description none: in memory only; aof-everysec: append-only file fsynced every second; aof-always: fsync on every write
             * @enum {string}
             */
            durability?: "none" | "aof-everysec" | "aof-always";
            /** @enum {string} */
            evictionPolicy?: "noeviction" | "allkeys-lru" | "allkeys-lfu" | "allkeys-random" | "volatile-lru" | "volatile-lfu" | "volatile-random" | "volatile-ttl";
            /**
             * @description default off; on needs replicasPerShard >= 1
             * @enum {string}
             */
            fencing?: "off" | "on";
            /**
             * @description default balanced
             * @enum {string}
             */
            migrationPriority?: "gentle" | "balanced" | "fast";
            /**
             * @description default 7 (Redis 7.0); set at create
             * @enum {string}
             */
            engineVersion?: "7" | "valkey-8";
            /**
             * @description default off; off or required at create (preferred is a stage of an in-place switch, by PATCH on valkey-8)
             * @enum {string}
             */
            tls?: "off" | "preferred" | "required";
            /**
             * @description default none; optional and required need tls required
             * @enum {string}
             */
            tlsClientAuth?: "none" | "optional" | "required";
            restoreFrom?: components["schemas"]["RestoreFrom"];
            /** @description weekly window (UTC) in which changes that restart engines run; default none */
            maintenanceWindow?: {
                /**
                 * @description the day (UTC) the window starts on
                 * @enum {string}
                 */
                dayOfWeek: "monday" | "tuesday" | "wednesday" | "thursday" | "friday" | "saturday" | "sunday";
                /** @description when it starts, HH:MM UTC */
                startTime: string;
                /** @description how long it stays open (30 minutes to 24 hours; it may run past midnight and from Sunday into Monday) */
                durationMinutes: number;
            } | null;
        };
        /** @description start with the data of a backup; shards, replicas and memory may differ from the backup's */
        RestoreFrom: {
            /**
             * Format: uuid
             * @description a completed backup of this organization (any shard count)
             */
            backupId: string;
        };
        ClusterList: {
            items: components["schemas"]["Cluster"][];
        };
        UpdateClusterDryRun: {
            /** @enum {boolean} */
            dryRun: true;
            plan: components["schemas"]["TopologyPlan"];
        };
        TopologyPlan: {
            changes: {
                field: string;
                from: number | string;
                to: number | string;
            }[];
            slotMoves: components["schemas"]["PlannedSlotMove"][];
            addInstances: components["schemas"]["PlannedInstanceChange"][];
            removeInstances: components["schemas"]["PlannedInstanceChange"][];
            /** @description in the order they run */
            steps: components["schemas"]["PlannedStep"][];
            /** @description true: applications keep reading and writing throughout (no engine restarts) */
            online: boolean;
            notes: string[];
            totals: {
                slots: number;
                keys: number;
                bytes: number;
            };
            /**
             * @description the priority the slot moves of this change run at
             * @enum {string}
             */
            migrationPriority: "gentle" | "balanced" | "fast";
            /** @description what moving these slots costs at each priority (empty when no slot moves) */
            migrationCosts: components["schemas"]["MigrationCost"][];
        };
        PlannedSlotMove: {
            fromShard: number;
            toShard: number;
            slots: components["schemas"]["SlotRange"][];
            slotCount: number;
            /** @description from the source shard's live key count, pro rata by slots */
            estimatedKeys: number;
            /** @description from the source shard's used memory, pro rata by slots */
            estimatedBytes: number;
        };
        SlotRange: {
            start: number;
            end: number;
        };
        PlannedInstanceChange: {
            /**
             * Format: uuid
             * @description existing instance (removals); null for a new one
             */
            instanceId: string | null;
            shard: number;
            /** @enum {string} */
            role: "primary" | "replica";
            /** Format: uuid */
            nodeId: string;
            nodeName: string;
            port: number;
        };
        PlannedStep: {
            name: string;
            title: string;
        };
        MigrationCost: {
            /**
             * @description how hard a slot migration may press on the primaries it moves keys between: gentle (smallest steps, one source at a time, rests whenever a primary is busy), balanced (short steps, sources in parallel, rests when a primary is busy), fast (long steps, never rests: requests on moving shards may wait several ms)
             * @enum {string}
             */
            priority: "gentle" | "balanced" | "fast";
            /** @description rough duration of the slot moves on an otherwise idle cluster */
            estimatedSeconds: number;
            /** @description longest a single migration step holds a primary: what an application request may wait behind it */
            maxBlockMs: number;
            summary: string;
        };
        UpdateClusterApplied: {
            cluster: components["schemas"]["Cluster"];
            /** @description a change of settings that restart no engine (maintenanceWindow alone) applies at once, without an operation */
            operation: null;
        };
        ClusterUpdateAccepted: {
            cluster: components["schemas"]["Cluster"];
            operation: components["schemas"]["Operation"];
            plan: components["schemas"]["TopologyPlan"];
        };
        UpdateClusterRequest: {
            shards?: number;
            replicasPerShard?: number;
            memoryMbPerShard?: number;
            /**
             * @description none: in memory only; aof-everysec: append-only file fsynced every second; aof-always: fsync on every write
             * @enum {string}
             */
            durability?: "none" | "aof-everysec" | "aof-always";
            /** @enum {string} */
            evictionPolicy?: "noeviction" | "allkeys-lru" | "allkeys-lfu" | "allkeys-random" | "volatile-lru" | "volatile-lfu" | "volatile-random" | "volatile-ttl";
            /**
             * @description turned on or off in place on every instance (CONFIG SET, no restart); on needs replicasPerShard >= 1
             * @enum {string}
             */
            fencing?: "off" | "on";
            /**
             * @description client certificates none, optional or required, changed in place on every instance in any order (CONFIG SET tls-auth-clients, no restart; open connections stay); optional and required need tls required
             * @enum {string}
             */
            tlsClientAuth?: "none" | "optional" | "required";
            /**
             * @description applies to this change's slot moves and every later one
             * @enum {string}
             */
            migrationPriority?: "gentle" | "balanced" | "fast";
            /**
             * @description set at create: another engine than the cluster's is refused (422 engine_change_unsupported)
             * @enum {string}
             */
            engineVersion?: "7" | "valkey-8";
            /**
             * @description valkey-8: switched in place as a tls-switch operation, alone in its PATCH (no restart; replicas before primaries; preferred serves both protocols while clients move). On a 7 cluster 422 tls_switch_needs_valkey (Redis 7.0 announces one client port, so cluster clients of one protocol would be sent to the other's port)
             * @enum {string}
             */
            tls?: "off" | "preferred" | "required";
            /** @description set (or with null, remove) the weekly maintenance window; alone it changes no engine and runs no operation */
            maintenanceWindow?: {
                /**
                 * @description the day (UTC) the window starts on
                 * @enum {string}
                 */
                dayOfWeek: "monday" | "tuesday" | "wednesday" | "thursday" | "friday" | "saturday" | "sunday";
                /** @description when it starts, HH:MM UTC */
                startTime: string;
                /** @description how long it stays open (30 minutes to 24 hours; it may run past midnight and from Sunday into Monday) */
                durationMinutes: number;
            } | null;
        };
        SwitchoverRequest: {
            /**
             * Format: uuid
             * @description the replica to promote; default: the most caught-up in-sync replica
             */
            targetInstanceId?: string;
        };
        RestartClusterRequest: {
            /**
             * @description now: start at once; maintenance_window: wait for the cluster's next window (default when the cluster has one)
             * @enum {string}
             */
            when?: "now" | "maintenance_window";
            /** @description true: start now even though the cluster has a maintenance window */
            force?: boolean;
        };
        RotateCaRequest: {
            /** @description how long after every instance serves a certificate of the new CA the old CA stays trusted (default 3600): time for clients to take the new CA */
            retireAfterSeconds?: number;
        };
        Topology: {
            /** Format: uuid */
            clusterId: string;
            shards: components["schemas"]["TopologyShard"][];
        };
        TopologyShard: {
            index: number;
            slots: components["schemas"]["SlotRange"][];
            instances: components["schemas"]["TopologyInstance"][];
        };
        TopologyInstance: {
            /** Format: uuid */
            id: string;
            /** Format: uuid */
            nodeId: string;
            nodeName: string;
            /** @description host:port */
            address: string;
            /**
             * @description the role it has now (follows failovers)
             * @enum {string}
             */
            role: "primary" | "replica";
            /**
             * @description the role placement gave it; Strata moves primaries back to these after a failover
             * @enum {string}
             */
            preferredRole: "primary" | "replica";
            /**
             * @description what the instance itself says, when its node reports
             * @enum {string|null}
             */
            observedRole: "primary" | "replica" | null;
            /** @enum {string} */
            health: "healthy" | "starting" | "down" | "unknown";
            /** @description a replica in a full sync from its primary (e.g. a copy being rebuilt): bytes received and, when known, the total */
            sync: {
                receivedBytes: number;
                totalBytes: number | null;
            } | null;
        };
        Connection: {
            /** @description redis:// (rediss:// when TLS is required) USER:PASSWORD@HOST:PORT of the cluster's stable endpoint (or of one primary when the installation has no endpoint host); Redis Cluster clients discover the rest. While tls is preferred: plain text (redis://) */
            uri: string;
            /** @description rediss:// URI while TLS is served (with caCertificate): the same as uri when tls is required; while tls is preferred, the TLS one beside the plain uri (on the port that serves TLS: the endpoint or a primary's second port); null when TLS is off */
            tlsUri: string | null;
            /** @description host:port of every primary */
            seeds: string[];
            username: string;
            password: string;
            /** @description the stable endpoint: served by whichever agents are alive, it forwards a connection to a live instance; it outlives the loss of any node */
            endpoint: {
                host: string;
                port: number;
                /** @description names of the nodes whose agents serve the endpoint now */
                servedBy: string[];
            } | null;
            /**
             * @description off: plain text; required: TLS only, on the client port and replication (and the cluster bus of a cluster created with TLS), with certificates from the cluster's own CA; preferred (valkey-8, by PATCH): both served while clients move, the protocol served before on the instances' ports and the other on a second port per instance
             * @enum {string}
             */
            tls: "off" | "preferred" | "required";
            /**
             * @description required: connect with a client certificate from POST /v1/clusters/{id}/client-certificates as well as the password; optional: a certificate is verified when presented, the password alone also works
             * @enum {string}
             */
            tlsClientAuth: "none" | "optional" | "required";
            /** @description PEM of the cluster's CA, which signed every instance's certificate (null when TLS is off) */
            caCertificate: string | null;
            /**
             * @description what the instances serve now, their own port's protocol first (plain+tls: plain text on the port, TLS on a second port); during a switch it follows the stages
             * @enum {string}
             */
            tlsServed: "plain" | "plain+tls" | "tls+plain" | "tls";
        };
        ClientCertificateWithKey: {
            clientCertificate: components["schemas"]["ClientCertificate"];
            /** @description PEM of the certificate, signed by the cluster's CA (save as client.crt) */
            certificate: string;
            /** @description PEM (PKCS #8) of its private key, shown once: Strata does not keep it (save as client.key) */
            privateKey: string;
        };
        ClientCertificate: {
            /** Format: uuid */
            id: string;
            name: string;
            /** @description hex, as openssl x509 -serial prints it */
            serialNumber: string;
            /** @description RFC 3339 timestamp */
            createdAt: string;
            /** @description RFC 3339 timestamp */
            expiresAt: string;
            /** @description when it was revoked (null: it was not); a revoked certificate is refused at the TLS handshake once applied */
            revokedAt: string | null;
            /** @description false: signed by the cluster's CA itself, so it stays valid until it expires (revoking it is refused with code not_revocable) */
            revocable: boolean;
            /** @description every running instance trusts it (or, revoked, no longer does); a fresh certificate works once applied, within seconds */
            applied: boolean;
        };
        CreateClientCertificateRequest: {
            /** @description what the certificate is for (e.g. the application); its subject's common name */
            name: string;
            /** @description days it is valid (default 365); never past the cluster's CA */
            validityDays?: number;
        };
        ClientCertificateList: {
            items: components["schemas"]["ClientCertificate"][];
        };
        OperationList: {
            items: components["schemas"]["Operation"][];
        };
        ClusterEventList: {
            items: components["schemas"]["ClusterEvent"][];
            /** @description pass as `before` to get the next (older) page */
            nextCursor: string | null;
        };
        ClusterEvent: {
            /** Format: uuid */
            id: string;
            /** Format: uuid */
            clusterId: string;
            /** @description RFC 3339 timestamp */
            at: string;
            message: string;
            /** @enum {string} */
            type: "failover";
            shard: number;
            /**
             * @description process-crash: the agent saw the primary exit; node-lost: its node stopped reporting; switchover: a data-safe planned failover; engine: Redis failed over on its own
             * @enum {string}
             */
            cause: "process-crash" | "node-lost" | "switchover" | "engine";
            oldPrimary: {
                /** Format: uuid */
                instanceId: string;
                /** @description host:port */
                address: string;
                nodeName: string;
            };
            newPrimary: {
                /** Format: uuid */
                instanceId: string;
                /** @description host:port */
                address: string;
                nodeName: string;
            };
            /** @description when the old primary was seen gone (agent) or asked to step down */
            detectedAt: string | null;
            /** @description when the new primary took over its slots */
            promotedAt: string;
            /** @description when the new primary reported cluster_state ok */
            clusterOkAt: string;
            /** @description the window without writes for this shard as Strata measured it: detectedAt to clusterOkAt */
            writeUnavailableMs: number | null;
        } | {
            /** Format: uuid */
            id: string;
            /** Format: uuid */
            clusterId: string;
            /** @description RFC 3339 timestamp */
            at: string;
            message: string;
            /** @enum {string} */
            type: "instance-restarted";
            shard: number;
            instance: {
                /** Format: uuid */
                instanceId: string;
                /** @description host:port */
                address: string;
                nodeName: string;
            };
            reason: string;
        } | {
            /** Format: uuid */
            id: string;
            /** Format: uuid */
            clusterId: string;
            /** @description RFC 3339 timestamp */
            at: string;
            message: string;
            /** @enum {string} */
            type: "data-lost";
            shard: number;
            instance: {
                /** Format: uuid */
                instanceId: string;
                /** @description host:port */
                address: string;
                nodeName: string;
            };
            reason: string;
        } | {
            /** Format: uuid */
            id: string;
            /** Format: uuid */
            clusterId: string;
            /** @description RFC 3339 timestamp */
            at: string;
            message: string;
            /** @enum {string} */
            type: "primaries-rebalanced";
            moves: {
                shard: number;
                from: {
                    /** Format: uuid */
                    instanceId: string;
                    /** @description host:port */
                    address: string;
                    nodeName: string;
                };
                to: {
                    /** Format: uuid */
                    instanceId: string;
                    /** @description host:port */
                    address: string;
                    nodeName: string;
                };
            }[];
        } | {
            /** Format: uuid */
            id: string;
            /** Format: uuid */
            clusterId: string;
            /** @description RFC 3339 timestamp */
            at: string;
            message: string;
            /** @enum {string} */
            type: "slots-repaired";
            slots: {
                slot: number;
                movedKeys: number;
            }[];
        } | {
            /** Format: uuid */
            id: string;
            /** Format: uuid */
            clusterId: string;
            /** @description RFC 3339 timestamp */
            at: string;
            message: string;
            /** @enum {string} */
            type: "node-down";
            node: {
                /** Format: uuid */
                id: string;
                name: string;
                address: string;
            };
            /** @description the node's last report */
            silentSince: string;
            /** @description this cluster's instances on the node */
            instances: {
                /** Format: uuid */
                instanceId: string;
                /** @description host:port */
                address: string;
                nodeName: string;
            }[];
        } | {
            /** Format: uuid */
            id: string;
            /** Format: uuid */
            clusterId: string;
            /** @description RFC 3339 timestamp */
            at: string;
            message: string;
            /** @enum {string} */
            type: "replica-rebuilt";
            shard: number;
            /** @description the copy on the down node */
            lost: {
                /** Format: uuid */
                instanceId: string;
                /** @description host:port */
                address: string;
                nodeName: string;
            };
            /** @description the new replica, on another node */
            replacement: {
                /** Format: uuid */
                instanceId: string;
                /** @description host:port */
                address: string;
                nodeName: string;
            };
        } | {
            /** Format: uuid */
            id: string;
            /** Format: uuid */
            clusterId: string;
            /** @description RFC 3339 timestamp */
            at: string;
            message: string;
            /** @enum {string} */
            type: "certificate-rotated";
            shard: number;
            instance: {
                /** Format: uuid */
                instanceId: string;
                /** @description host:port */
                address: string;
                nodeName: string;
            };
            /** @description when the replaced certificate would have expired */
            previousExpiresAt: string;
            /** @description when the certificate the instance serves now expires */
            expiresAt: string;
        } | {
            /** Format: uuid */
            id: string;
            /** Format: uuid */
            clusterId: string;
            /** @description RFC 3339 timestamp */
            at: string;
            message: string;
            /** @enum {string} */
            type: "client-certificate-revoked";
            /** Format: uuid */
            certificateId: string;
            /** @description the certificate's name (its common name) */
            name: string;
            serialNumber: string;
        } | {
            /** Format: uuid */
            id: string;
            /** Format: uuid */
            clusterId: string;
            /** @description RFC 3339 timestamp */
            at: string;
            message: string;
            /** @enum {string} */
            type: "backup-completed";
            /** Format: uuid */
            backupId: string;
            /** @enum {string} */
            trigger: "manual" | "schedule";
            consistent: boolean;
            /** @description the files' total size */
            bytes: number;
            keys: number;
            /** @description from the backup's start to its manifest */
            durationMs: number;
        } | {
            /** Format: uuid */
            id: string;
            /** Format: uuid */
            clusterId: string;
            /** @description RFC 3339 timestamp */
            at: string;
            message: string;
            /** @enum {string} */
            type: "backup-failed";
            /** Format: uuid */
            backupId: string;
            /** @enum {string} */
            trigger: "manual" | "schedule";
            /** @description the backup's error.code (storage_failed, snapshot_failed, cancelled, ...) */
            code: string;
            /** @description the backup's error.message */
            reason: string;
        } | {
            /** Format: uuid */
            id: string;
            /** Format: uuid */
            clusterId: string;
            /** @description RFC 3339 timestamp */
            at: string;
            message: string;
            /** @enum {string} */
            type: "restore-completed";
            /** Format: uuid */
            backupId: string;
            /** @description the cluster the backup was taken of (or the imported source) */
            sourceClusterName: string;
            /**
             * @description seed: each file loaded by its shard; move: keys moved by slot from temporary engines
             * @enum {string}
             */
            mode: "seed" | "move";
            /** @description the backup's key count */
            keys: number;
        } | {
            /** Format: uuid */
            id: string;
            /** Format: uuid */
            clusterId: string;
            /** @description RFC 3339 timestamp */
            at: string;
            message: string;
            /** @enum {string} */
            type: "tls-switched";
            /** @description the stage done: serve-tls-beside-plain, close-plain, serve-plain-beside-tls, close-tls, close-second-tls, close-second-plain */
            stage: string;
            /**
             * @description what every instance serves from now on, its own port's protocol first
             * @enum {string}
             */
            served: "plain" | "plain+tls" | "tls+plain" | "tls";
        };
        SlowLog: {
            /** Format: uuid */
            clusterId: string;
            /** @description RFC 3339 timestamp */
            readAt: string;
            /** @description every instance's entries merged: newest first, the slowest first within a second */
            entries: components["schemas"]["SlowLogEntry"][];
            /** @description each instance read, and whether it answered */
            sources: components["schemas"]["SlowLogSource"][];
        };
        SlowLogEntry: {
            /** @description the entry's id on its instance */
            id: number;
            /** @description when the command ran (second resolution) */
            at: string;
            durationMicros: number;
            /** @description the command name, upper case */
            command: string;
            /** @description its arguments, each cut to 64 characters, at most 16; bytes that are not printable shown as \xHH */
            args: string[];
            /** @description arguments left out (by Redis or here) */
            argsOmitted: number;
            /** @description client address (host:port) */
            client: string;
            /** @description CLIENT SETNAME of the client, or empty */
            clientName: string;
            /** Format: uuid */
            instanceId: string;
            shard: number;
            /**
             * @description its role when read
             * @enum {string|null}
             */
            role: "primary" | "replica" | null;
            /** @description host:port of the instance */
            address: string;
            nodeName: string;
        };
        SlowLogSource: {
            /** Format: uuid */
            instanceId: string;
            shard: number;
            address: string;
            ok: boolean;
            /** @description why it could not be read (node offline, engine down, no answer in time) */
            error?: string;
            /** @description entries the instance holds (SLOWLOG LEN) */
            length: number | null;
            /** @description slowlog-log-slower-than on the instance */
            slowerThanMicros: number | null;
            /** @description slowlog-max-len on the instance */
            maxLen: number | null;
        };
        SlowLogReset: {
            /** @description instances whose slow log was emptied */
            reset: number;
            sources: components["schemas"]["SlowLogSource"][];
        };
        KeyScan: {
            /** Format: uuid */
            id: string;
            /** Format: uuid */
            clusterId: string;
            /** @enum {string} */
            status: "running" | "completed" | "failed";
            params: {
                topN: number;
                budgetMs: number;
                batchSize: number;
                pauseMs: number;
                /** @description OBJECT FREQ is read too (the eviction policy is an LFU one) */
                hotKeys: boolean;
            };
            hotKeys: components["schemas"]["HotKeysAvailability"];
            shards: components["schemas"]["KeyScanShard"][];
            /** @description RFC 3339 timestamp */
            createdAt: string;
            /** @description RFC 3339 timestamp */
            finishedAt: string | null;
        };
        HotKeysAvailability: {
            available: boolean;
            evictionPolicy: string;
            /** @description why hot keys are or are not reported */
            reason: string;
        };
        KeyScanShard: {
            shard: number;
            /** Format: uuid */
            instanceId: string;
            address: string;
            /** @enum {string} */
            state: "pending" | "running" | "completed" | "failed";
            /** @description keys scanned over the shard's keys (SCAN may visit a key twice, so it is an estimate) */
            progress: number;
            detail: string | null;
            error: string | null;
            result: {
                keysScanned: number;
                /** @description DBSIZE when the scan began */
                keysInShard: number;
                /** @description false: the time budget ran out (or it was stopped) before SCAN went round */
                complete: boolean;
                elapsedMs: number;
                batches: number;
                bigKeys: components["schemas"]["BigKey"][];
                hotKeys: components["schemas"]["HotKey"][] | null;
            } | null;
        };
        BigKey: {
            /** @description bytes that are not printable shown as \xHH; cut to 200 characters */
            key: string;
            /** @description string, list, set, zset, hash, stream */
            type: string;
            /** @description MEMORY USAGE (nested values sampled) */
            bytes: number;
        };
        HotKey: {
            key: string;
            type: string;
            /** @description OBJECT FREQ: the logarithmic LFU access counter (0-255), decayed over time */
            freq: number;
        };
        KeyScanRequest: {
            /** @description keys kept per shard and list (default 10) */
            topN?: number;
            /** @description longest a shard's scan may take; it stops there and says how far it got (default 300000) */
            budgetMs?: number;
            /** @description keys per SCAN call and per pipelined batch of MEMORY USAGE (default 1000) */
            batchSize?: number;
            /** @description least rest between batches, so the primary serves its clients in between (default 1000); the scan also rests at least four times as long as its last batch took */
            pauseMs?: number;
        };
        KeyScanList: {
            items: components["schemas"]["KeyScan"][];
        };
        Heat: {
            /** Format: uuid */
            clusterId: string;
            windowSeconds: number;
            /** @description unix seconds of the newest sample (null: no samples yet) */
            at: number | null;
            shards: components["schemas"]["HeatShard"][];
            skew: {
                /** @description busiest shard over the mean (1 = even) */
                ops: number | null;
                /** @description fullest shard over the mean (1 = even) */
                memory: number | null;
            };
        };
        HeatShard: {
            shard: number;
            /** @description reads + writes per second on the shard, averaged over the window */
            opsPerSec: number | null;
            /** @description the shard's primary */
            memoryUsedBytes: number | null;
            memoryMaxBytes: number | null;
            keys: number | null;
            /** @description slowest member's server-side p99, µs */
            latencyP99Micros: number | null;
            /** @description the shard's part of the cluster's ops (0-1) */
            opsShare: number | null;
            /** @description the shard's part of the cluster's used memory (0-1) */
            memoryShare: number | null;
        };
        BackupResponse: {
            backup: components["schemas"]["Backup"];
        };
        Backup: {
            /** Format: uuid */
            id: string;
            /** Format: uuid */
            clusterId: string;
            clusterName: string;
            /** @enum {string} */
            status: "running" | "completed" | "failed";
            consistent: boolean;
            /** @enum {string} */
            storage: "local" | "s3";
            /**
             * @description import: fetched from a running Redis or Redis Cluster (POST /v1/backups/import); upload: an RDB file uploaded (POST /v1/backups/upload)
             * @enum {string}
             */
            trigger: "manual" | "schedule" | "import" | "upload";
            /** @description imports: the source as redis://[user@]host:port (never the password) */
            importedFrom: string | null;
            /** @description the cluster is gone; the backup is kept until its retention ends */
            clusterDeleted: boolean;
            /** @description when retention deletes it (keepDays); null: kept until deleted or pushed out by keepLast */
            expiresAt: string | null;
            shards: {
                shard: number;
                /** @enum {string} */
                state: "pending" | "running" | "completed" | "failed";
                /** @description bytes stored so far */
                bytes: number | null;
                /** @description the snapshot's size when known (a snapshot streamed as it is produced: once stored) */
                totalBytes: number | null;
                /** @description host:port of the instance the snapshot is taken on */
                source: string | null;
            }[];
            manifest: components["schemas"]["BackupManifest"];
            /** @description why it failed */
            error: {
                code: string;
                message: string;
            } | null;
            /** @description RFC 3339 timestamp */
            createdAt: string;
            /** @description RFC 3339 timestamp */
            finishedAt: string | null;
        };
        /** @description present once completed */
        BackupManifest: {
            /** @enum {number} */
            formatVersion: 1;
            /** Format: uuid */
            backupId: string;
            cluster: {
                /** Format: uuid */
                id: string;
                name: string;
                spec: components["schemas"]["ClusterSpec"];
            };
            /** @description redis_version of the sources */
            engineVersion: string;
            /** @description false: each shard has its own point in time */
            consistent: boolean;
            /** @description RFC 3339 timestamp */
            startedAt: string;
            /** @description RFC 3339 timestamp */
            finishedAt: string;
            /** @description time between the first and the last shard's snapshot */
            skewMs: number;
            /** @description consistent backups: how long writes were paused on the primaries */
            writePauseMs: number | null;
            shards: components["schemas"]["BackupShardFile"][];
        } | null;
        BackupShardFile: {
            shard: number;
            slots: components["schemas"]["SlotRange"][];
            /** @description object key under the backup */
            file: string;
            bytes: number;
            sha256: string;
            /** @description keys in the snapshot */
            keys: number;
            /** @description of which with a TTL (those that expire before a restore are not loaded) */
            keysWithExpiry: number;
            /** @description memory the source used when it took the snapshot */
            usedMemoryBytes: number;
            source: {
                /** Format: uuid */
                instanceId: string;
                /** @enum {string} */
                role: "primary" | "replica";
                address: string;
            };
            /** @description when the snapshot started (its point in time) */
            snapshotAt: string;
            /** @description RFC 3339 timestamp */
            finishedAt: string;
        };
        CreateBackupRequest: {
            /** @description one point in time across every shard: writes pause on every primary while each shard's snapshot starts */
            consistent?: boolean;
        };
        ImportBackupRequest: {
            /** @description the source: a standalone Redis, or any node of a Redis Cluster (every primary is fetched). The password is used for the fetch only and never shown. */
            url: string;
            /** @description shown as the backup's cluster name (default: host:port) */
            name?: string;
        };
        BackupList: {
            items: components["schemas"]["Backup"][];
        };
        BackupScheduleResponse: {
            schedule: components["schemas"]["BackupSchedule"];
            /** @description when the next scheduled backup starts */
            nextAt: string | null;
        };
        /** @description null: no schedule */
        BackupSchedule: {
            /**
             * @description back up every N hours
             * @default null
             */
            intervalHours: number | null;
            /**
             * @description back up once a day at HH:MM UTC
             * @default null
             */
            dailyAt: string | null;
            /**
             * @description keep the newest N completed backups of the cluster
             * @default null
             */
            keepLast: number | null;
            /**
             * @description keep completed backups N days
             * @default null
             */
            keepDays: number | null;
            /** @default false */
            consistent: boolean;
        } | null;
        BackupStorage: {
            /**
             * @description local: the control plane's directory (the default)
             * @enum {string}
             */
            kind: "local" | "s3";
            endpoint: string | null;
            bucket: string | null;
            region: string | null;
            prefix: string | null;
            /** @description the last 4 characters only; the secret is never shown */
            accessKeyId: string | null;
            /** @description RFC 3339 timestamp */
            updatedAt: string | null;
        };
        SetBackupStorageRequest: {
            /** @enum {string} */
            kind: "s3";
            /**
             * Format: uri
             * @description e.g. https://s3.eu-west-1.amazonaws.com or http://127.0.0.1:8333
             */
            endpoint: string;
            bucket: string;
            /** @default us-east-1 */
            region: string;
            /** @default  */
            prefix: string;
            accessKeyId: string;
            /** @description write-only: never shown again */
            secretAccessKey: string;
        };
        DatabaseUserWithPassword: {
            user: components["schemas"]["DatabaseUser"];
            /** @description shown once: Strata keeps only its SHA-256 hash */
            password: string;
        };
        DatabaseUser: {
            name: string;
            /**
             * @description read-only: reads only; read-write: what the cluster's own user may do (data commands, KEYS, FLUSHALL, SORT; no admin); read-write-safe: reads and writes without admin or dangerous commands (no KEYS, FLUSHALL, FLUSHDB, SORT)
             * @enum {string}
             */
            preset: "read-only" | "read-write" | "read-write-safe";
            /** @description empty: every key */
            keyPatterns: string[];
            /** @description empty: every channel */
            channelPatterns: string[];
            /** @description RFC 3339 timestamp */
            createdAt: string;
            /** @description RFC 3339 timestamp */
            passwordRotatedAt: string | null;
            /** @description while a rotation's grace period runs: when the previous password stops working */
            previousPasswordExpiresAt: string | null;
            /** @description every running instance has this user as it is now */
            applied: boolean;
        };
        CreateDatabaseUserRequest: {
            /** @description the Redis user name clients AUTH with */
            name: string;
            /**
             * @description read-only: reads only; read-write: what the cluster's own user may do (data commands, KEYS, FLUSHALL, SORT; no admin); read-write-safe: reads and writes without admin or dangerous commands (no KEYS, FLUSHALL, FLUSHDB, SORT)
             * @enum {string}
             */
            preset: "read-only" | "read-write" | "read-write-safe";
            /** @description key globs the user may touch (e.g. "orders:*"); every key when absent */
            keyPatterns?: string[];
            /** @description Pub/Sub channel globs; every channel when absent */
            channelPatterns?: string[];
            /** @description at least 16 characters; when absent, Strata generates one (64 hex characters) */
            password?: string;
        };
        DatabaseUserList: {
            items: components["schemas"]["DatabaseUser"][];
        };
        RotateDatabaseUserRequest: {
            /** @description how long the previous password keeps working (default 3600; 0: at once) */
            graceSeconds?: number;
            /** @description at least 16 characters; when absent, Strata generates one (64 hex characters) */
            password?: string;
        };
        NodeList: {
            /**
             * @description fleet: every node (platform admins); organization: only nodes running instances of the caller's clusters
             * @enum {string}
             */
            scope: "fleet" | "organization";
            items: components["schemas"]["Node"][];
        };
        Node: {
            /** Format: uuid */
            id: string;
            name: string;
            /** @description IP address the node binds engines to */
            address: string;
            /**
             * @description offline: silent for a few seconds; down: silent past the node-down timeout (default 15 s)
             * @enum {string}
             */
            status: "online" | "offline" | "down";
            /** @description taken out of placement; its instances are moving to other nodes */
            draining: boolean;
            /** @description the node's size and memory in use by every organization; platform admins only (null for others) */
            capacity: {
                memoryMb: number;
                usedMemoryMb: number;
            } | null;
            /** @description RFC 3339 timestamp */
            lastHeartbeatAt: string | null;
            agentVersion: string | null;
            /** @description when the agent's credential was revoked (its requests are refused since); null while valid */
            credentialRevokedAt: string | null;
            /** @description fleet view: every organization's instances on the node; otherwise only the caller's */
            instances: {
                /** Format: uuid */
                id: string;
                /** Format: uuid */
                clusterId: string;
                clusterName: string;
                /** @description the cluster's organization (a tenant's list holds only its own; the fleet view every organization's) */
                organizationName: string;
                port: number;
                /** @enum {string} */
                role: "primary" | "replica";
                state: string;
                /** @description times the agent restarted this engine after a crash */
                restarts: number;
                /** @description memory reserved for this instance */
                memoryMb: number;
            }[];
            /** @description RFC 3339 timestamp */
            createdAt: string;
        };
        Capacity: {
            /** @description nodes that take new instances (online, not draining) */
            onlineNodes: number;
            /** @description the replicas per shard the bounds below are for */
            replicasPerShard: number;
            /** @description the memory per shard `maxShards` is for */
            memoryMbPerShard: number;
            /** @description a primary and each replica need distinct nodes: online nodes - 1 (or 0), at most the limit */
            maxReplicasPerShard: number;
            /** @description the most memory per shard placeable with `replicasPerShard` replicas (0: none) */
            maxMemoryMbPerShard: number;
            /** @description the most shards of `memoryMbPerShard` with `replicasPerShard` replicas placeable now (0: none) */
            maxShards: number;
            /** @description distinct nodes `shards` shards of this shape would occupy; null when not asked or it does not fit */
            nodesUsed: number | null;
            /** @description platform admins only: free memory of each schedulable node, largest first */
            nodeFreeMemoryMb?: number[];
        };
        NodeCredentialRevoked: {
            /** Format: uuid */
            id: string;
            name: string;
            /** @description RFC 3339 timestamp */
            credentialRevokedAt: string;
        };
        JoinToken: {
            token: string;
            /** @description RFC 3339 timestamp */
            expiresAt: string;
            /** @description SHA-256 of the certificate an agent pins when the control plane serves HTTPS (STRATA_CA_SHA256 of the agent); null over plain HTTP */
            controlPlaneCaSha256: string | null;
        };
        CreateJoinTokenRequest: {
            ttlSeconds?: number;
        };
        CreateOrganizationResponse: {
            organization: components["schemas"]["Organization"];
            /** @description admin API token of the new organization; shown once */
            token: string;
        };
        Organization: {
            /** Format: uuid */
            id: string;
            name: string;
            /** @description RFC 3339 timestamp */
            createdAt: string;
        };
        CreateOrganizationRequest: {
            name: string;
        };
        UserList: {
            items: components["schemas"]["User"][];
        };
        User: {
            /** Format: uuid */
            id: string;
            email: string;
            /** Format: uuid */
            organizationId: string;
            /** @enum {string} */
            role: "viewer" | "member" | "admin";
            /** @description platform administrator (manages nodes and organizations) */
            isAdmin: boolean;
            /** @description RFC 3339 timestamp */
            createdAt: string;
        };
        CreateUserRequest: {
            email: string;
            password: string;
            /**
             * @description default member
             * @enum {string}
             */
            role?: "viewer" | "member" | "admin";
        };
        UpdateUserRequest: {
            /** @enum {string} */
            role: "viewer" | "member" | "admin";
        };
        ApiToken: components["schemas"]["ApiTokenInfo"] & {
            /** @description the secret; shown once */
            token: string;
        };
        ApiTokenInfo: {
            /** Format: uuid */
            id: string;
            name: string;
            scopes: ("clusters:read" | "clusters:write" | "benchmarks:run" | "admin")[];
            /** @description email of the user who created it; null for tokens made by Strata itself */
            createdBy: string | null;
            /** @description RFC 3339 timestamp */
            createdAt: string;
            /** @description RFC 3339 timestamp */
            expiresAt: string | null;
            /** @description updated at most once a minute */
            lastUsedAt: string | null;
            /** @description RFC 3339 timestamp */
            revokedAt: string | null;
        };
        CreateTokenRequest: {
            name: string;
            /** @description within what your role allows */
            scopes: ("clusters:read" | "clusters:write" | "benchmarks:run" | "admin")[];
            /**
             * Format: date-time
             * @description RFC 3339; the token stops working then. Default: never
             */
            expiresAt?: string;
        };
        ApiTokenList: {
            items: components["schemas"]["ApiTokenInfo"][];
        };
        AuditList: {
            items: components["schemas"]["AuditEntry"][];
            /** @description pass as `before` for older entries */
            nextCursor: string | null;
        };
        AuditEntry: {
            id: string;
            /** @description RFC 3339 timestamp */
            at: string;
            actor: {
                /** @enum {string} */
                type: "user" | "token" | "operator";
                id: string | null;
                /** @description user email, or token name */
                name: string;
            };
            /** @description METHOD and route, e.g. "DELETE /v1/clusters/:id"; SIGN-IN, SIGN-IN-FAILED or SIGN-OUT for the console's sessions */
            action: string;
            /** @description the action as a stable kind, e.g. "cluster.delete", "session.sign-in-failed" */
            kind: string;
            /** @description what happened in words, e.g. "Deleted cluster orders-cache", "Changed cluster orders-cache (dry run: nothing changed)" */
            summary: string;
            resource: {
                /** @enum {string} */
                type: "cluster" | "node" | "user" | "token" | "organization" | "benchmark" | "operation" | "session" | "alert-rule" | "notification-channel" | "backup";
                id: string | null;
                /** @description as it was when the entry was written */
                name: string | null;
            };
            /** @description a previewed change (?dryRun=true): nothing was changed */
            dryRun: boolean;
            targetId: string | null;
            /** @description HTTP status of the change */
            status: number;
            /** @description the request body without secrets */
            detail: {
                [key: string]: unknown;
            };
        };
        Session: {
            user: components["schemas"]["User"];
            organization: components["schemas"]["Organization"];
            csrfToken: string;
            /** @description what this session may do (from the role) */
            scopes: ("clusters:read" | "clusters:write" | "benchmarks:run" | "admin")[];
        };
        LoginRequest: {
            email: string;
            password: string;
        };
        RegisterAgentResponse: {
            /** Format: uuid */
            nodeId: string;
            credential: string;
        };
        RegisterAgentRequest: {
            joinToken: string;
            name: string;
            /** @description IP the node binds engines to and other nodes reach it on */
            address: string;
            /** @description stored as a 32-bit integer */
            memoryMb: number;
            agentVersion: string;
        };
        AgentStatusReport: {
            agentVersion: string;
            memoryMb: number;
            instances: {
                /** Format: uuid */
                instanceId: string;
                /** Format: uuid */
                clusterId: string;
                port: number;
                pid: number | null;
                /** @enum {string} */
                state: "starting" | "running" | "crashed" | "stopped";
                restarts: number;
                lastError: string | null;
                cluster: {
                    myId: string;
                    /** @enum {string} */
                    role: "primary" | "replica";
                    /** @enum {string} */
                    state: "ok" | "fail";
                    knownNodes: number;
                    slotsAssigned: number;
                    /** @description for a replica: the node id of its primary */
                    primaryId: string | null;
                    primaryLinkUp: boolean | null;
                    /** @default 0 */
                    slotsOwned: number;
                    /** @default [] */
                    openSlots: {
                        slot: number;
                        /** @enum {string} */
                        state: "importing" | "migrating";
                        /** @description the node it imports from / migrates to */
                        peerId: string;
                    }[];
                    /** @default null */
                    replOffset: number | null;
                    /** @default null */
                    linkDownSinceSec: number | null;
                    /** @default false */
                    syncInProgress: boolean;
                    syncReadBytes?: number | null;
                    syncTotalBytes?: number | null;
                    /** @default 0 */
                    configEpoch: number;
                    unreachablePeers?: string[];
                    /** @description when the engine was read (ms epoch, the agent's clock): a report may carry a view up to a second old */
                    sampledAt?: number;
                } | null;
                /** @default false */
                held: boolean;
                /**
                 * @description RFC 3339 timestamp
                 * @default null
                 */
                crashedAt: string | null;
                usersDigest?: string | null;
                /** @description RFC 3339 timestamp */
                certificateExpiresAt?: string | null;
                trustDigest?: string | null;
            }[];
            /** @description ports of warm spare engines (started >2 s ago, not yet part of a cluster) the node can hand to new primaries */
            sparePorts?: number[];
            /** @description cluster endpoint ports this agent is serving (listening on) now */
            endpointPorts?: number[];
        };
        AgentEndpoints: {
            /** @description the address clients use for cluster endpoints; null when the installation has none */
            host: string | null;
            items: components["schemas"]["AgentEndpoint"][];
        };
        AgentEndpoint: {
            /** Format: uuid */
            clusterId: string;
            port: number;
            /** @description host:port of the cluster's instances on live nodes, primaries first */
            targets: string[];
        };
        LeaseTaskResponse: {
            task: components["schemas"]["AgentTask"];
        };
        AgentTask: {
            /** Format: uuid */
            id: string;
            attempt: number;
            /** @description RFC 3339 timestamp */
            leaseExpiresAt: string;
            payload: {
                /** @enum {string} */
                kind: "ensure-instance";
                instance: {
                    /** Format: uuid */
                    instanceId: string;
                    /** Format: uuid */
                    clusterId: string;
                    port: number;
                    memoryMb: number;
                    /**
                     * @description none: in memory only; aof-everysec: append-only file fsynced every second; aof-always: fsync on every write
                     * @enum {string}
                     */
                    durability: "none" | "aof-everysec" | "aof-always";
                    /** @enum {string} */
                    evictionPolicy: "noeviction" | "allkeys-lru" | "allkeys-lfu" | "allkeys-random" | "volatile-lru" | "volatile-lfu" | "volatile-random" | "volatile-ttl";
                    /**
                     * @description absent: off
                     * @enum {string}
                     */
                    fencing?: "off" | "on";
                    /**
                     * @description a TLS instance: client certificates required (tls-auth-clients); absent: none
                     * @enum {string}
                     */
                    tlsClientAuth?: "none" | "optional" | "required";
                    /**
                     * @description the engine the agent runs: valkey-8 starts valkey-server; absent or 7: redis-server
                     * @enum {string}
                     */
                    engineVersion?: "7" | "valkey-8";
                    /** @description a valkey-8 cluster whose TLS is or was switched in place: what its ports and bus serve; absent: the credentials decide (TLS everywhere, or none) */
                    tlsLayout?: {
                        /**
                         * @description the instance's own port's protocol first; plain+tls and tls+plain serve the other on secondPort
                         * @enum {string}
                         */
                        layout: "plain" | "plain+tls" | "tls+plain" | "tls";
                        secondPort?: number;
                        /** @description the cluster bus speaks TLS (kept from the cluster's create) */
                        bus: boolean;
                    };
                };
                seed?: {
                    storage: components["schemas"]["BackupStorageRef"];
                    /** @description added on the way to the agent for S3 storage */
                    storageCredentials?: {
                        accessKeyId: string;
                        secretAccessKey: string;
                    };
                    key: string;
                    sha256: string;
                    keys: number;
                    keysWithExpiry: number;
                };
                dropClaims?: boolean;
                release?: boolean;
                credentials: {
                    customerUser: string;
                    customerPassword: string;
                    internalUser: string;
                    internalPassword: string;
                    /** @description present when the cluster serves TLS somewhere (its ports, a second port, or its bus) */
                    tls?: {
                        /** @description PEM of the cluster CA: every connection to an instance verifies against it */
                        caCertificate: string;
                        /** @description the certificate (PEM) and key of the instance a task runs (ensure-instance, configure-instance, renew-certificate), for the node it runs on */
                        instanceCertificate?: {
                            certificate: string;
                            privateKey: string;
                        };
                        /** @description PEM bundle the instances load as their CA file: the cluster's CA and the issuer of every live client certificate (absent: the CA alone) */
                        trustedCertificates?: string;
                        /** @description the certificate (PEM) and key Strata's own connections to the cluster's instances present (asked for when the cluster requires client certificates) */
                        clientCertificate?: {
                            certificate: string;
                            privateKey: string;
                        };
                        /** @description true: the instances' own port still serves plain text (TLS on a second port, or only on the cluster bus); Strata's connections there speak plain text */
                        plainPort?: boolean;
                    };
                    /** @description the cluster's database users as desired when the task was handed out (password hashes only) */
                    databaseUsers?: {
                        name: string;
                        /**
                         * @description read-only: reads only; read-write: what the cluster's own user may do (data commands, KEYS, FLUSHALL, SORT; no admin); read-write-safe: reads and writes without admin or dangerous commands (no KEYS, FLUSHALL, FLUSHDB, SORT)
                         * @enum {string}
                         */
                        preset: "read-only" | "read-write" | "read-write-safe";
                        keyPatterns?: string[];
                        channelPatterns?: string[];
                        passwordHashes: string[];
                    }[];
                };
            } | {
                /** @enum {string} */
                kind: "remove-instance";
                /** Format: uuid */
                instanceId: string;
                /** Format: uuid */
                clusterId: string;
            } | {
                /** @enum {string} */
                kind: "restart-instance";
                /** Format: uuid */
                instanceId: string;
                /** Format: uuid */
                clusterId: string;
            } | {
                /** @enum {string} */
                kind: "form-cluster";
                /** Format: uuid */
                clusterId: string;
                shards: {
                    slots: components["schemas"]["SlotRange"][];
                    primary: {
                        /** Format: uuid */
                        instanceId: string;
                        host: string;
                        port: number;
                    };
                    replicas: {
                        /** Format: uuid */
                        instanceId: string;
                        host: string;
                        port: number;
                    }[];
                }[];
                credentials: {
                    customerUser: string;
                    customerPassword: string;
                    internalUser: string;
                    internalPassword: string;
                    /** @description present when the cluster serves TLS somewhere (its ports, a second port, or its bus) */
                    tls?: {
                        /** @description PEM of the cluster CA: every connection to an instance verifies against it */
                        caCertificate: string;
                        /** @description the certificate (PEM) and key of the instance a task runs (ensure-instance, configure-instance, renew-certificate), for the node it runs on */
                        instanceCertificate?: {
                            certificate: string;
                            privateKey: string;
                        };
                        /** @description PEM bundle the instances load as their CA file: the cluster's CA and the issuer of every live client certificate (absent: the CA alone) */
                        trustedCertificates?: string;
                        /** @description the certificate (PEM) and key Strata's own connections to the cluster's instances present (asked for when the cluster requires client certificates) */
                        clientCertificate?: {
                            certificate: string;
                            privateKey: string;
                        };
                        /** @description true: the instances' own port still serves plain text (TLS on a second port, or only on the cluster bus); Strata's connections there speak plain text */
                        plainPort?: boolean;
                    };
                    /** @description the cluster's database users as desired when the task was handed out (password hashes only) */
                    databaseUsers?: {
                        name: string;
                        /**
                         * @description read-only: reads only; read-write: what the cluster's own user may do (data commands, KEYS, FLUSHALL, SORT; no admin); read-write-safe: reads and writes without admin or dangerous commands (no KEYS, FLUSHALL, FLUSHDB, SORT)
                         * @enum {string}
                         */
                        preset: "read-only" | "read-write" | "read-write-safe";
                        keyPatterns?: string[];
                        channelPatterns?: string[];
                        passwordHashes: string[];
                    }[];
                };
            } | {
                /** @enum {string} */
                kind: "failover";
                /** Format: uuid */
                clusterId: string;
                /** Format: uuid */
                instanceId: string;
                port: number;
                /** @enum {string} */
                mode: "force" | "takeover" | "switchover";
                credentials: {
                    customerUser: string;
                    customerPassword: string;
                    internalUser: string;
                    internalPassword: string;
                    /** @description present when the cluster serves TLS somewhere (its ports, a second port, or its bus) */
                    tls?: {
                        /** @description PEM of the cluster CA: every connection to an instance verifies against it */
                        caCertificate: string;
                        /** @description the certificate (PEM) and key of the instance a task runs (ensure-instance, configure-instance, renew-certificate), for the node it runs on */
                        instanceCertificate?: {
                            certificate: string;
                            privateKey: string;
                        };
                        /** @description PEM bundle the instances load as their CA file: the cluster's CA and the issuer of every live client certificate (absent: the CA alone) */
                        trustedCertificates?: string;
                        /** @description the certificate (PEM) and key Strata's own connections to the cluster's instances present (asked for when the cluster requires client certificates) */
                        clientCertificate?: {
                            certificate: string;
                            privateKey: string;
                        };
                        /** @description true: the instances' own port still serves plain text (TLS on a second port, or only on the cluster bus); Strata's connections there speak plain text */
                        plainPort?: boolean;
                    };
                    /** @description the cluster's database users as desired when the task was handed out (password hashes only) */
                    databaseUsers?: {
                        name: string;
                        /**
                         * @description read-only: reads only; read-write: what the cluster's own user may do (data commands, KEYS, FLUSHALL, SORT; no admin); read-write-safe: reads and writes without admin or dangerous commands (no KEYS, FLUSHALL, FLUSHDB, SORT)
                         * @enum {string}
                         */
                        preset: "read-only" | "read-write" | "read-write-safe";
                        keyPatterns?: string[];
                        channelPatterns?: string[];
                        passwordHashes: string[];
                    }[];
                };
            } | {
                /** @enum {string} */
                kind: "repair-slots";
                /** Format: uuid */
                clusterId: string;
                primaries: {
                    /** Format: uuid */
                    instanceId: string;
                    host: string;
                    port: number;
                }[];
                credentials: {
                    customerUser: string;
                    customerPassword: string;
                    internalUser: string;
                    internalPassword: string;
                    /** @description present when the cluster serves TLS somewhere (its ports, a second port, or its bus) */
                    tls?: {
                        /** @description PEM of the cluster CA: every connection to an instance verifies against it */
                        caCertificate: string;
                        /** @description the certificate (PEM) and key of the instance a task runs (ensure-instance, configure-instance, renew-certificate), for the node it runs on */
                        instanceCertificate?: {
                            certificate: string;
                            privateKey: string;
                        };
                        /** @description PEM bundle the instances load as their CA file: the cluster's CA and the issuer of every live client certificate (absent: the CA alone) */
                        trustedCertificates?: string;
                        /** @description the certificate (PEM) and key Strata's own connections to the cluster's instances present (asked for when the cluster requires client certificates) */
                        clientCertificate?: {
                            certificate: string;
                            privateKey: string;
                        };
                        /** @description true: the instances' own port still serves plain text (TLS on a second port, or only on the cluster bus); Strata's connections there speak plain text */
                        plainPort?: boolean;
                    };
                    /** @description the cluster's database users as desired when the task was handed out (password hashes only) */
                    databaseUsers?: {
                        name: string;
                        /**
                         * @description read-only: reads only; read-write: what the cluster's own user may do (data commands, KEYS, FLUSHALL, SORT; no admin); read-write-safe: reads and writes without admin or dangerous commands (no KEYS, FLUSHALL, FLUSHDB, SORT)
                         * @enum {string}
                         */
                        preset: "read-only" | "read-write" | "read-write-safe";
                        keyPatterns?: string[];
                        channelPatterns?: string[];
                        passwordHashes: string[];
                    }[];
                };
            } | {
                /** @enum {string} */
                kind: "join-replica";
                /** Format: uuid */
                clusterId: string;
                /** Format: uuid */
                instanceId: string;
                port: number;
                primary: {
                    /** Format: uuid */
                    instanceId: string;
                    host: string;
                    port: number;
                };
                credentials: {
                    customerUser: string;
                    customerPassword: string;
                    internalUser: string;
                    internalPassword: string;
                    /** @description present when the cluster serves TLS somewhere (its ports, a second port, or its bus) */
                    tls?: {
                        /** @description PEM of the cluster CA: every connection to an instance verifies against it */
                        caCertificate: string;
                        /** @description the certificate (PEM) and key of the instance a task runs (ensure-instance, configure-instance, renew-certificate), for the node it runs on */
                        instanceCertificate?: {
                            certificate: string;
                            privateKey: string;
                        };
                        /** @description PEM bundle the instances load as their CA file: the cluster's CA and the issuer of every live client certificate (absent: the CA alone) */
                        trustedCertificates?: string;
                        /** @description the certificate (PEM) and key Strata's own connections to the cluster's instances present (asked for when the cluster requires client certificates) */
                        clientCertificate?: {
                            certificate: string;
                            privateKey: string;
                        };
                        /** @description true: the instances' own port still serves plain text (TLS on a second port, or only on the cluster bus); Strata's connections there speak plain text */
                        plainPort?: boolean;
                    };
                    /** @description the cluster's database users as desired when the task was handed out (password hashes only) */
                    databaseUsers?: {
                        name: string;
                        /**
                         * @description read-only: reads only; read-write: what the cluster's own user may do (data commands, KEYS, FLUSHALL, SORT; no admin); read-write-safe: reads and writes without admin or dangerous commands (no KEYS, FLUSHALL, FLUSHDB, SORT)
                         * @enum {string}
                         */
                        preset: "read-only" | "read-write" | "read-write-safe";
                        keyPatterns?: string[];
                        channelPatterns?: string[];
                        passwordHashes: string[];
                    }[];
                };
            } | {
                /** @enum {string} */
                kind: "forget-nodes";
                /** Format: uuid */
                clusterId: string;
                members: {
                    /** Format: uuid */
                    instanceId: string;
                    host: string;
                    port: number;
                    /** @description its Redis node id as last recorded (null: never seen running) */
                    engineId: string | null;
                    /** @description it runs now and forgets the others; a member that does not run is only kept */
                    running: boolean;
                }[];
                credentials: {
                    customerUser: string;
                    customerPassword: string;
                    internalUser: string;
                    internalPassword: string;
                    /** @description present when the cluster serves TLS somewhere (its ports, a second port, or its bus) */
                    tls?: {
                        /** @description PEM of the cluster CA: every connection to an instance verifies against it */
                        caCertificate: string;
                        /** @description the certificate (PEM) and key of the instance a task runs (ensure-instance, configure-instance, renew-certificate), for the node it runs on */
                        instanceCertificate?: {
                            certificate: string;
                            privateKey: string;
                        };
                        /** @description PEM bundle the instances load as their CA file: the cluster's CA and the issuer of every live client certificate (absent: the CA alone) */
                        trustedCertificates?: string;
                        /** @description the certificate (PEM) and key Strata's own connections to the cluster's instances present (asked for when the cluster requires client certificates) */
                        clientCertificate?: {
                            certificate: string;
                            privateKey: string;
                        };
                        /** @description true: the instances' own port still serves plain text (TLS on a second port, or only on the cluster bus); Strata's connections there speak plain text */
                        plainPort?: boolean;
                    };
                    /** @description the cluster's database users as desired when the task was handed out (password hashes only) */
                    databaseUsers?: {
                        name: string;
                        /**
                         * @description read-only: reads only; read-write: what the cluster's own user may do (data commands, KEYS, FLUSHALL, SORT; no admin); read-write-safe: reads and writes without admin or dangerous commands (no KEYS, FLUSHALL, FLUSHDB, SORT)
                         * @enum {string}
                         */
                        preset: "read-only" | "read-write" | "read-write-safe";
                        keyPatterns?: string[];
                        channelPatterns?: string[];
                        passwordHashes: string[];
                    }[];
                };
            } | {
                /** @enum {string} */
                kind: "configure-instance";
                instance: {
                    /** Format: uuid */
                    instanceId: string;
                    /** Format: uuid */
                    clusterId: string;
                    port: number;
                    memoryMb: number;
                    /**
                     * @description none: in memory only; aof-everysec: append-only file fsynced every second; aof-always: fsync on every write
                     * @enum {string}
                     */
                    durability: "none" | "aof-everysec" | "aof-always";
                    /** @enum {string} */
                    evictionPolicy: "noeviction" | "allkeys-lru" | "allkeys-lfu" | "allkeys-random" | "volatile-lru" | "volatile-lfu" | "volatile-random" | "volatile-ttl";
                    /**
                     * @description absent: off
                     * @enum {string}
                     */
                    fencing?: "off" | "on";
                    /**
                     * @description a TLS instance: client certificates required (tls-auth-clients); absent: none
                     * @enum {string}
                     */
                    tlsClientAuth?: "none" | "optional" | "required";
                    /**
                     * @description the engine the agent runs: valkey-8 starts valkey-server; absent or 7: redis-server
                     * @enum {string}
                     */
                    engineVersion?: "7" | "valkey-8";
                    /** @description a valkey-8 cluster whose TLS is or was switched in place: what its ports and bus serve; absent: the credentials decide (TLS everywhere, or none) */
                    tlsLayout?: {
                        /**
                         * @description the instance's own port's protocol first; plain+tls and tls+plain serve the other on secondPort
                         * @enum {string}
                         */
                        layout: "plain" | "plain+tls" | "tls+plain" | "tls";
                        secondPort?: number;
                        /** @description the cluster bus speaks TLS (kept from the cluster's create) */
                        bus: boolean;
                    };
                };
                credentials: {
                    customerUser: string;
                    customerPassword: string;
                    internalUser: string;
                    internalPassword: string;
                    /** @description present when the cluster serves TLS somewhere (its ports, a second port, or its bus) */
                    tls?: {
                        /** @description PEM of the cluster CA: every connection to an instance verifies against it */
                        caCertificate: string;
                        /** @description the certificate (PEM) and key of the instance a task runs (ensure-instance, configure-instance, renew-certificate), for the node it runs on */
                        instanceCertificate?: {
                            certificate: string;
                            privateKey: string;
                        };
                        /** @description PEM bundle the instances load as their CA file: the cluster's CA and the issuer of every live client certificate (absent: the CA alone) */
                        trustedCertificates?: string;
                        /** @description the certificate (PEM) and key Strata's own connections to the cluster's instances present (asked for when the cluster requires client certificates) */
                        clientCertificate?: {
                            certificate: string;
                            privateKey: string;
                        };
                        /** @description true: the instances' own port still serves plain text (TLS on a second port, or only on the cluster bus); Strata's connections there speak plain text */
                        plainPort?: boolean;
                    };
                    /** @description the cluster's database users as desired when the task was handed out (password hashes only) */
                    databaseUsers?: {
                        name: string;
                        /**
                         * @description read-only: reads only; read-write: what the cluster's own user may do (data commands, KEYS, FLUSHALL, SORT; no admin); read-write-safe: reads and writes without admin or dangerous commands (no KEYS, FLUSHALL, FLUSHDB, SORT)
                         * @enum {string}
                         */
                        preset: "read-only" | "read-write" | "read-write-safe";
                        keyPatterns?: string[];
                        channelPatterns?: string[];
                        passwordHashes: string[];
                    }[];
                };
            } | {
                /** @enum {string} */
                kind: "sync-users";
                /** Format: uuid */
                clusterId: string;
                /** Format: uuid */
                instanceId: string;
                credentials: {
                    customerUser: string;
                    customerPassword: string;
                    internalUser: string;
                    internalPassword: string;
                    /** @description present when the cluster serves TLS somewhere (its ports, a second port, or its bus) */
                    tls?: {
                        /** @description PEM of the cluster CA: every connection to an instance verifies against it */
                        caCertificate: string;
                        /** @description the certificate (PEM) and key of the instance a task runs (ensure-instance, configure-instance, renew-certificate), for the node it runs on */
                        instanceCertificate?: {
                            certificate: string;
                            privateKey: string;
                        };
                        /** @description PEM bundle the instances load as their CA file: the cluster's CA and the issuer of every live client certificate (absent: the CA alone) */
                        trustedCertificates?: string;
                        /** @description the certificate (PEM) and key Strata's own connections to the cluster's instances present (asked for when the cluster requires client certificates) */
                        clientCertificate?: {
                            certificate: string;
                            privateKey: string;
                        };
                        /** @description true: the instances' own port still serves plain text (TLS on a second port, or only on the cluster bus); Strata's connections there speak plain text */
                        plainPort?: boolean;
                    };
                    /** @description the cluster's database users as desired when the task was handed out (password hashes only) */
                    databaseUsers?: {
                        name: string;
                        /**
                         * @description read-only: reads only; read-write: what the cluster's own user may do (data commands, KEYS, FLUSHALL, SORT; no admin); read-write-safe: reads and writes without admin or dangerous commands (no KEYS, FLUSHALL, FLUSHDB, SORT)
                         * @enum {string}
                         */
                        preset: "read-only" | "read-write" | "read-write-safe";
                        keyPatterns?: string[];
                        channelPatterns?: string[];
                        passwordHashes: string[];
                    }[];
                };
            } | {
                /** @enum {string} */
                kind: "renew-certificate";
                /** Format: uuid */
                clusterId: string;
                /** Format: uuid */
                instanceId: string;
                /** @description RFC 3339 timestamp */
                replaces: string;
                credentials: {
                    customerUser: string;
                    customerPassword: string;
                    internalUser: string;
                    internalPassword: string;
                    /** @description present when the cluster serves TLS somewhere (its ports, a second port, or its bus) */
                    tls?: {
                        /** @description PEM of the cluster CA: every connection to an instance verifies against it */
                        caCertificate: string;
                        /** @description the certificate (PEM) and key of the instance a task runs (ensure-instance, configure-instance, renew-certificate), for the node it runs on */
                        instanceCertificate?: {
                            certificate: string;
                            privateKey: string;
                        };
                        /** @description PEM bundle the instances load as their CA file: the cluster's CA and the issuer of every live client certificate (absent: the CA alone) */
                        trustedCertificates?: string;
                        /** @description the certificate (PEM) and key Strata's own connections to the cluster's instances present (asked for when the cluster requires client certificates) */
                        clientCertificate?: {
                            certificate: string;
                            privateKey: string;
                        };
                        /** @description true: the instances' own port still serves plain text (TLS on a second port, or only on the cluster bus); Strata's connections there speak plain text */
                        plainPort?: boolean;
                    };
                    /** @description the cluster's database users as desired when the task was handed out (password hashes only) */
                    databaseUsers?: {
                        name: string;
                        /**
                         * @description read-only: reads only; read-write: what the cluster's own user may do (data commands, KEYS, FLUSHALL, SORT; no admin); read-write-safe: reads and writes without admin or dangerous commands (no KEYS, FLUSHALL, FLUSHDB, SORT)
                         * @enum {string}
                         */
                        preset: "read-only" | "read-write" | "read-write-safe";
                        keyPatterns?: string[];
                        channelPatterns?: string[];
                        passwordHashes: string[];
                    }[];
                };
            } | {
                /** @enum {string} */
                kind: "sync-trust";
                /** Format: uuid */
                clusterId: string;
                /** Format: uuid */
                instanceId: string;
                credentials: {
                    customerUser: string;
                    customerPassword: string;
                    internalUser: string;
                    internalPassword: string;
                    /** @description present when the cluster serves TLS somewhere (its ports, a second port, or its bus) */
                    tls?: {
                        /** @description PEM of the cluster CA: every connection to an instance verifies against it */
                        caCertificate: string;
                        /** @description the certificate (PEM) and key of the instance a task runs (ensure-instance, configure-instance, renew-certificate), for the node it runs on */
                        instanceCertificate?: {
                            certificate: string;
                            privateKey: string;
                        };
                        /** @description PEM bundle the instances load as their CA file: the cluster's CA and the issuer of every live client certificate (absent: the CA alone) */
                        trustedCertificates?: string;
                        /** @description the certificate (PEM) and key Strata's own connections to the cluster's instances present (asked for when the cluster requires client certificates) */
                        clientCertificate?: {
                            certificate: string;
                            privateKey: string;
                        };
                        /** @description true: the instances' own port still serves plain text (TLS on a second port, or only on the cluster bus); Strata's connections there speak plain text */
                        plainPort?: boolean;
                    };
                    /** @description the cluster's database users as desired when the task was handed out (password hashes only) */
                    databaseUsers?: {
                        name: string;
                        /**
                         * @description read-only: reads only; read-write: what the cluster's own user may do (data commands, KEYS, FLUSHALL, SORT; no admin); read-write-safe: reads and writes without admin or dangerous commands (no KEYS, FLUSHALL, FLUSHDB, SORT)
                         * @enum {string}
                         */
                        preset: "read-only" | "read-write" | "read-write-safe";
                        keyPatterns?: string[];
                        channelPatterns?: string[];
                        passwordHashes: string[];
                    }[];
                };
            } | {
                /** @enum {string} */
                kind: "tls-switch";
                /** Format: uuid */
                clusterId: string;
                /** @enum {string} */
                direction: "on" | "off";
                /** @enum {string} */
                stage: "serve-both" | "finish" | "withdraw";
                member: {
                    /** Format: uuid */
                    instanceId: string;
                    host: string;
                    port: number;
                    secondPort: number;
                    /** @enum {string} */
                    role: "primary" | "replica";
                };
                /** @description a primary: replicas that must be linked on the new protocol before its part is done */
                replicas: number;
                /** @description the instance as it runs after the stage (kept by the agent and written into its config) */
                instance: {
                    /** Format: uuid */
                    instanceId: string;
                    /** Format: uuid */
                    clusterId: string;
                    port: number;
                    memoryMb: number;
                    /**
                     * @description none: in memory only; aof-everysec: append-only file fsynced every second; aof-always: fsync on every write
                     * @enum {string}
                     */
                    durability: "none" | "aof-everysec" | "aof-always";
                    /** @enum {string} */
                    evictionPolicy: "noeviction" | "allkeys-lru" | "allkeys-lfu" | "allkeys-random" | "volatile-lru" | "volatile-lfu" | "volatile-random" | "volatile-ttl";
                    /**
                     * @description absent: off
                     * @enum {string}
                     */
                    fencing?: "off" | "on";
                    /**
                     * @description a TLS instance: client certificates required (tls-auth-clients); absent: none
                     * @enum {string}
                     */
                    tlsClientAuth?: "none" | "optional" | "required";
                    /**
                     * @description the engine the agent runs: valkey-8 starts valkey-server; absent or 7: redis-server
                     * @enum {string}
                     */
                    engineVersion?: "7" | "valkey-8";
                    /** @description a valkey-8 cluster whose TLS is or was switched in place: what its ports and bus serve; absent: the credentials decide (TLS everywhere, or none) */
                    tlsLayout?: {
                        /**
                         * @description the instance's own port's protocol first; plain+tls and tls+plain serve the other on secondPort
                         * @enum {string}
                         */
                        layout: "plain" | "plain+tls" | "tls+plain" | "tls";
                        secondPort?: number;
                        /** @description the cluster bus speaks TLS (kept from the cluster's create) */
                        bus: boolean;
                    };
                };
                credentials: {
                    customerUser: string;
                    customerPassword: string;
                    internalUser: string;
                    internalPassword: string;
                    /** @description present when the cluster serves TLS somewhere (its ports, a second port, or its bus) */
                    tls?: {
                        /** @description PEM of the cluster CA: every connection to an instance verifies against it */
                        caCertificate: string;
                        /** @description the certificate (PEM) and key of the instance a task runs (ensure-instance, configure-instance, renew-certificate), for the node it runs on */
                        instanceCertificate?: {
                            certificate: string;
                            privateKey: string;
                        };
                        /** @description PEM bundle the instances load as their CA file: the cluster's CA and the issuer of every live client certificate (absent: the CA alone) */
                        trustedCertificates?: string;
                        /** @description the certificate (PEM) and key Strata's own connections to the cluster's instances present (asked for when the cluster requires client certificates) */
                        clientCertificate?: {
                            certificate: string;
                            privateKey: string;
                        };
                        /** @description true: the instances' own port still serves plain text (TLS on a second port, or only on the cluster bus); Strata's connections there speak plain text */
                        plainPort?: boolean;
                    };
                    /** @description the cluster's database users as desired when the task was handed out (password hashes only) */
                    databaseUsers?: {
                        name: string;
                        /**
                         * @description read-only: reads only; read-write: what the cluster's own user may do (data commands, KEYS, FLUSHALL, SORT; no admin); read-write-safe: reads and writes without admin or dangerous commands (no KEYS, FLUSHALL, FLUSHDB, SORT)
                         * @enum {string}
                         */
                        preset: "read-only" | "read-write" | "read-write-safe";
                        keyPatterns?: string[];
                        channelPatterns?: string[];
                        passwordHashes: string[];
                    }[];
                };
            } | {
                /** @enum {string} */
                kind: "meet-primary";
                /** Format: uuid */
                clusterId: string;
                /** Format: uuid */
                instanceId: string;
                port: number;
                seed: {
                    /** Format: uuid */
                    instanceId: string;
                    host: string;
                    port: number;
                };
                credentials: {
                    customerUser: string;
                    customerPassword: string;
                    internalUser: string;
                    internalPassword: string;
                    /** @description present when the cluster serves TLS somewhere (its ports, a second port, or its bus) */
                    tls?: {
                        /** @description PEM of the cluster CA: every connection to an instance verifies against it */
                        caCertificate: string;
                        /** @description the certificate (PEM) and key of the instance a task runs (ensure-instance, configure-instance, renew-certificate), for the node it runs on */
                        instanceCertificate?: {
                            certificate: string;
                            privateKey: string;
                        };
                        /** @description PEM bundle the instances load as their CA file: the cluster's CA and the issuer of every live client certificate (absent: the CA alone) */
                        trustedCertificates?: string;
                        /** @description the certificate (PEM) and key Strata's own connections to the cluster's instances present (asked for when the cluster requires client certificates) */
                        clientCertificate?: {
                            certificate: string;
                            privateKey: string;
                        };
                        /** @description true: the instances' own port still serves plain text (TLS on a second port, or only on the cluster bus); Strata's connections there speak plain text */
                        plainPort?: boolean;
                    };
                    /** @description the cluster's database users as desired when the task was handed out (password hashes only) */
                    databaseUsers?: {
                        name: string;
                        /**
                         * @description read-only: reads only; read-write: what the cluster's own user may do (data commands, KEYS, FLUSHALL, SORT; no admin); read-write-safe: reads and writes without admin or dangerous commands (no KEYS, FLUSHALL, FLUSHDB, SORT)
                         * @enum {string}
                         */
                        preset: "read-only" | "read-write" | "read-write-safe";
                        keyPatterns?: string[];
                        channelPatterns?: string[];
                        passwordHashes: string[];
                    }[];
                };
            } | {
                /** @enum {string} */
                kind: "migrate-slots";
                /** Format: uuid */
                clusterId: string;
                targets: {
                    /** Format: uuid */
                    instanceId: string;
                    host: string;
                    port: number;
                    slots: components["schemas"]["SlotRange"][];
                    /**
                     * @description Redis node ids of the target's shard's other instances: a slot only one of them (dead now) claims is claimed by the target
                     * @default []
                     */
                    shardEngineIds: string[];
                }[];
                primaries: {
                    /** Format: uuid */
                    instanceId: string;
                    host: string;
                    port: number;
                }[];
                /**
                 * @description how hard a slot migration may press on the primaries it moves keys between: gentle (smallest steps, one source at a time, rests whenever a primary is busy), balanced (short steps, sources in parallel, rests when a primary is busy), fast (long steps, never rests: requests on moving shards may wait several ms)
                 * @default balanced
                 * @enum {string}
                 */
                priority: "gentle" | "balanced" | "fast";
                credentials: {
                    customerUser: string;
                    customerPassword: string;
                    internalUser: string;
                    internalPassword: string;
                    /** @description present when the cluster serves TLS somewhere (its ports, a second port, or its bus) */
                    tls?: {
                        /** @description PEM of the cluster CA: every connection to an instance verifies against it */
                        caCertificate: string;
                        /** @description the certificate (PEM) and key of the instance a task runs (ensure-instance, configure-instance, renew-certificate), for the node it runs on */
                        instanceCertificate?: {
                            certificate: string;
                            privateKey: string;
                        };
                        /** @description PEM bundle the instances load as their CA file: the cluster's CA and the issuer of every live client certificate (absent: the CA alone) */
                        trustedCertificates?: string;
                        /** @description the certificate (PEM) and key Strata's own connections to the cluster's instances present (asked for when the cluster requires client certificates) */
                        clientCertificate?: {
                            certificate: string;
                            privateKey: string;
                        };
                        /** @description true: the instances' own port still serves plain text (TLS on a second port, or only on the cluster bus); Strata's connections there speak plain text */
                        plainPort?: boolean;
                    };
                    /** @description the cluster's database users as desired when the task was handed out (password hashes only) */
                    databaseUsers?: {
                        name: string;
                        /**
                         * @description read-only: reads only; read-write: what the cluster's own user may do (data commands, KEYS, FLUSHALL, SORT; no admin); read-write-safe: reads and writes without admin or dangerous commands (no KEYS, FLUSHALL, FLUSHDB, SORT)
                         * @enum {string}
                         */
                        preset: "read-only" | "read-write" | "read-write-safe";
                        keyPatterns?: string[];
                        channelPatterns?: string[];
                        passwordHashes: string[];
                    }[];
                };
            } | {
                /** Format: uuid */
                benchmarkId: string;
                /** Format: uuid */
                clusterId: string;
                /** @enum {string} */
                workload: "ycsb-a" | "ycsb-b" | "ycsb-c" | "ycsb-d" | "ycsb-f" | "getset" | "analytic";
                recordCount: number;
                threads: number;
                connections: number;
                pipeline: number;
                targetOpsPerSec?: number;
                seed: number;
                valueSize: number;
                ratio: string;
                /** @enum {string} */
                keyPattern: "uniform" | "gaussian";
                /** @description cluster members host:port */
                seeds: string[];
                workerIndexBase: number;
                workerCountTotal: number;
                /** @description every key the run reads or writes starts with it; the agent removes them when the run ends */
                keyPrefix: string;
                /** @enum {string} */
                kind: "benchmark";
                credentials: {
                    customerUser: string;
                    customerPassword: string;
                    internalUser: string;
                    internalPassword: string;
                    /** @description present when the cluster serves TLS somewhere (its ports, a second port, or its bus) */
                    tls?: {
                        /** @description PEM of the cluster CA: every connection to an instance verifies against it */
                        caCertificate: string;
                        /** @description the certificate (PEM) and key of the instance a task runs (ensure-instance, configure-instance, renew-certificate), for the node it runs on */
                        instanceCertificate?: {
                            certificate: string;
                            privateKey: string;
                        };
                        /** @description PEM bundle the instances load as their CA file: the cluster's CA and the issuer of every live client certificate (absent: the CA alone) */
                        trustedCertificates?: string;
                        /** @description the certificate (PEM) and key Strata's own connections to the cluster's instances present (asked for when the cluster requires client certificates) */
                        clientCertificate?: {
                            certificate: string;
                            privateKey: string;
                        };
                        /** @description true: the instances' own port still serves plain text (TLS on a second port, or only on the cluster bus); Strata's connections there speak plain text */
                        plainPort?: boolean;
                    };
                    /** @description the cluster's database users as desired when the task was handed out (password hashes only) */
                    databaseUsers?: {
                        name: string;
                        /**
                         * @description read-only: reads only; read-write: what the cluster's own user may do (data commands, KEYS, FLUSHALL, SORT; no admin); read-write-safe: reads and writes without admin or dangerous commands (no KEYS, FLUSHALL, FLUSHDB, SORT)
                         * @enum {string}
                         */
                        preset: "read-only" | "read-write" | "read-write-safe";
                        keyPatterns?: string[];
                        channelPatterns?: string[];
                        passwordHashes: string[];
                    }[];
                };
            } | {
                /** Format: uuid */
                profileId: string;
                workloads: components["schemas"]["ProfileWorkload"][];
                /** @description the agent kills fio past this */
                timeLimitSec: number;
                /** @enum {string} */
                kind: "disk-profile";
            } | {
                /** Format: uuid */
                backupId: string;
                /** Format: uuid */
                clusterId: string;
                /** Format: uuid */
                instanceId: string;
                port: number;
                shard: number;
                storage: components["schemas"]["BackupStorageRef"];
                key: string;
                /** @description consistent backups: the snapshot was started during the write pause; wait for that one (rdb_saves past savesBefore) instead of starting one */
                awaitSave?: {
                    savesBefore: number;
                    /** @description RFC 3339 timestamp */
                    snapshotAt: string;
                };
                /** @enum {string} */
                kind: "backup-shard";
                credentials: {
                    customerUser: string;
                    customerPassword: string;
                    internalUser: string;
                    internalPassword: string;
                    /** @description present when the cluster serves TLS somewhere (its ports, a second port, or its bus) */
                    tls?: {
                        /** @description PEM of the cluster CA: every connection to an instance verifies against it */
                        caCertificate: string;
                        /** @description the certificate (PEM) and key of the instance a task runs (ensure-instance, configure-instance, renew-certificate), for the node it runs on */
                        instanceCertificate?: {
                            certificate: string;
                            privateKey: string;
                        };
                        /** @description PEM bundle the instances load as their CA file: the cluster's CA and the issuer of every live client certificate (absent: the CA alone) */
                        trustedCertificates?: string;
                        /** @description the certificate (PEM) and key Strata's own connections to the cluster's instances present (asked for when the cluster requires client certificates) */
                        clientCertificate?: {
                            certificate: string;
                            privateKey: string;
                        };
                        /** @description true: the instances' own port still serves plain text (TLS on a second port, or only on the cluster bus); Strata's connections there speak plain text */
                        plainPort?: boolean;
                    };
                    /** @description the cluster's database users as desired when the task was handed out (password hashes only) */
                    databaseUsers?: {
                        name: string;
                        /**
                         * @description read-only: reads only; read-write: what the cluster's own user may do (data commands, KEYS, FLUSHALL, SORT; no admin); read-write-safe: reads and writes without admin or dangerous commands (no KEYS, FLUSHALL, FLUSHDB, SORT)
                         * @enum {string}
                         */
                        preset: "read-only" | "read-write" | "read-write-safe";
                        keyPatterns?: string[];
                        channelPatterns?: string[];
                        passwordHashes: string[];
                    }[];
                };
                storageCredentials?: {
                    accessKeyId: string;
                    secretAccessKey: string;
                };
            } | {
                /** Format: uuid */
                backupId: string;
                /** Format: uuid */
                clusterId: string;
                /** @description the pause ends by itself after this, should the agent die holding it */
                pauseTimeoutMs: number;
                shards: {
                    shard: number;
                    primary: {
                        host: string;
                        port: number;
                    };
                    source: {
                        host: string;
                        port: number;
                        /** Format: uuid */
                        instanceId: string;
                        /** @enum {string} */
                        role: "primary" | "replica";
                    };
                }[];
                /** @enum {string} */
                kind: "backup-consistent-start";
                credentials: {
                    customerUser: string;
                    customerPassword: string;
                    internalUser: string;
                    internalPassword: string;
                    /** @description present when the cluster serves TLS somewhere (its ports, a second port, or its bus) */
                    tls?: {
                        /** @description PEM of the cluster CA: every connection to an instance verifies against it */
                        caCertificate: string;
                        /** @description the certificate (PEM) and key of the instance a task runs (ensure-instance, configure-instance, renew-certificate), for the node it runs on */
                        instanceCertificate?: {
                            certificate: string;
                            privateKey: string;
                        };
                        /** @description PEM bundle the instances load as their CA file: the cluster's CA and the issuer of every live client certificate (absent: the CA alone) */
                        trustedCertificates?: string;
                        /** @description the certificate (PEM) and key Strata's own connections to the cluster's instances present (asked for when the cluster requires client certificates) */
                        clientCertificate?: {
                            certificate: string;
                            privateKey: string;
                        };
                        /** @description true: the instances' own port still serves plain text (TLS on a second port, or only on the cluster bus); Strata's connections there speak plain text */
                        plainPort?: boolean;
                    };
                    /** @description the cluster's database users as desired when the task was handed out (password hashes only) */
                    databaseUsers?: {
                        name: string;
                        /**
                         * @description read-only: reads only; read-write: what the cluster's own user may do (data commands, KEYS, FLUSHALL, SORT; no admin); read-write-safe: reads and writes without admin or dangerous commands (no KEYS, FLUSHALL, FLUSHDB, SORT)
                         * @enum {string}
                         */
                        preset: "read-only" | "read-write" | "read-write-safe";
                        keyPatterns?: string[];
                        channelPatterns?: string[];
                        passwordHashes: string[];
                    }[];
                };
            } | {
                /** Format: uuid */
                clusterId: string;
                /** @description the cluster's instances on the agent's node */
                instances: {
                    /** Format: uuid */
                    instanceId: string;
                    port: number;
                }[];
                limit: number;
                /** @description true: empty the slow log (SLOWLOG RESET) instead of reading it */
                reset: boolean;
                /** @enum {string} */
                kind: "slowlog";
                credentials: {
                    customerUser: string;
                    customerPassword: string;
                    internalUser: string;
                    internalPassword: string;
                    /** @description present when the cluster serves TLS somewhere (its ports, a second port, or its bus) */
                    tls?: {
                        /** @description PEM of the cluster CA: every connection to an instance verifies against it */
                        caCertificate: string;
                        /** @description the certificate (PEM) and key of the instance a task runs (ensure-instance, configure-instance, renew-certificate), for the node it runs on */
                        instanceCertificate?: {
                            certificate: string;
                            privateKey: string;
                        };
                        /** @description PEM bundle the instances load as their CA file: the cluster's CA and the issuer of every live client certificate (absent: the CA alone) */
                        trustedCertificates?: string;
                        /** @description the certificate (PEM) and key Strata's own connections to the cluster's instances present (asked for when the cluster requires client certificates) */
                        clientCertificate?: {
                            certificate: string;
                            privateKey: string;
                        };
                        /** @description true: the instances' own port still serves plain text (TLS on a second port, or only on the cluster bus); Strata's connections there speak plain text */
                        plainPort?: boolean;
                    };
                    /** @description the cluster's database users as desired when the task was handed out (password hashes only) */
                    databaseUsers?: {
                        name: string;
                        /**
                         * @description read-only: reads only; read-write: what the cluster's own user may do (data commands, KEYS, FLUSHALL, SORT; no admin); read-write-safe: reads and writes without admin or dangerous commands (no KEYS, FLUSHALL, FLUSHDB, SORT)
                         * @enum {string}
                         */
                        preset: "read-only" | "read-write" | "read-write-safe";
                        keyPatterns?: string[];
                        channelPatterns?: string[];
                        passwordHashes: string[];
                    }[];
                };
            } | {
                /** Format: uuid */
                scanId: string;
                /** Format: uuid */
                clusterId: string;
                /** Format: uuid */
                instanceId: string;
                port: number;
                shard: number;
                params: {
                    topN: number;
                    budgetMs: number;
                    batchSize: number;
                    pauseMs: number;
                    /** @description OBJECT FREQ is read too (the eviction policy is an LFU one) */
                    hotKeys: boolean;
                };
                /** @enum {string} */
                kind: "key-scan";
                credentials: {
                    customerUser: string;
                    customerPassword: string;
                    internalUser: string;
                    internalPassword: string;
                    /** @description present when the cluster serves TLS somewhere (its ports, a second port, or its bus) */
                    tls?: {
                        /** @description PEM of the cluster CA: every connection to an instance verifies against it */
                        caCertificate: string;
                        /** @description the certificate (PEM) and key of the instance a task runs (ensure-instance, configure-instance, renew-certificate), for the node it runs on */
                        instanceCertificate?: {
                            certificate: string;
                            privateKey: string;
                        };
                        /** @description PEM bundle the instances load as their CA file: the cluster's CA and the issuer of every live client certificate (absent: the CA alone) */
                        trustedCertificates?: string;
                        /** @description the certificate (PEM) and key Strata's own connections to the cluster's instances present (asked for when the cluster requires client certificates) */
                        clientCertificate?: {
                            certificate: string;
                            privateKey: string;
                        };
                        /** @description true: the instances' own port still serves plain text (TLS on a second port, or only on the cluster bus); Strata's connections there speak plain text */
                        plainPort?: boolean;
                    };
                    /** @description the cluster's database users as desired when the task was handed out (password hashes only) */
                    databaseUsers?: {
                        name: string;
                        /**
                         * @description read-only: reads only; read-write: what the cluster's own user may do (data commands, KEYS, FLUSHALL, SORT; no admin); read-write-safe: reads and writes without admin or dangerous commands (no KEYS, FLUSHALL, FLUSHDB, SORT)
                         * @enum {string}
                         */
                        preset: "read-only" | "read-write" | "read-write-safe";
                        keyPatterns?: string[];
                        channelPatterns?: string[];
                        passwordHashes: string[];
                    }[];
                };
            } | {
                /** Format: uuid */
                clusterId: string;
                /** @description the backup's shard whose file this task moves */
                backupShard: number;
                /** @description the file, checked against its SHA-256 on the way in */
                file: {
                    storage: components["schemas"]["BackupStorageRef"];
                    /** @description added on the way to the agent for S3 storage */
                    storageCredentials?: {
                        accessKeyId: string;
                        secretAccessKey: string;
                    };
                    key: string;
                    sha256: string;
                    keys: number;
                    keysWithExpiry: number;
                };
                /** @description the new cluster's primaries (the slot map is read from them) */
                targets: {
                    host: string;
                    port: number;
                }[];
                /** @enum {string} */
                kind: "restore-keys";
                credentials: {
                    customerUser: string;
                    customerPassword: string;
                    internalUser: string;
                    internalPassword: string;
                    /** @description present when the cluster serves TLS somewhere (its ports, a second port, or its bus) */
                    tls?: {
                        /** @description PEM of the cluster CA: every connection to an instance verifies against it */
                        caCertificate: string;
                        /** @description the certificate (PEM) and key of the instance a task runs (ensure-instance, configure-instance, renew-certificate), for the node it runs on */
                        instanceCertificate?: {
                            certificate: string;
                            privateKey: string;
                        };
                        /** @description PEM bundle the instances load as their CA file: the cluster's CA and the issuer of every live client certificate (absent: the CA alone) */
                        trustedCertificates?: string;
                        /** @description the certificate (PEM) and key Strata's own connections to the cluster's instances present (asked for when the cluster requires client certificates) */
                        clientCertificate?: {
                            certificate: string;
                            privateKey: string;
                        };
                        /** @description true: the instances' own port still serves plain text (TLS on a second port, or only on the cluster bus); Strata's connections there speak plain text */
                        plainPort?: boolean;
                    };
                    /** @description the cluster's database users as desired when the task was handed out (password hashes only) */
                    databaseUsers?: {
                        name: string;
                        /**
                         * @description read-only: reads only; read-write: what the cluster's own user may do (data commands, KEYS, FLUSHALL, SORT; no admin); read-write-safe: reads and writes without admin or dangerous commands (no KEYS, FLUSHALL, FLUSHDB, SORT)
                         * @enum {string}
                         */
                        preset: "read-only" | "read-write" | "read-write-safe";
                        keyPatterns?: string[];
                        channelPatterns?: string[];
                        passwordHashes: string[];
                    }[];
                };
            } | {
                /** Format: uuid */
                backupId: string;
                /**
                 * Format: uuid
                 * @description imports own their tasks: the backup's id
                 */
                clusterId: string;
                shard: number;
                source: {
                    host: string;
                    port: number;
                    username?: string;
                };
                storage: components["schemas"]["BackupStorageRef"];
                key: string;
                /** @enum {string} */
                kind: "import-shard";
                sourcePassword?: string;
                storageCredentials?: {
                    accessKeyId: string;
                    secretAccessKey: string;
                };
            };
        } | null;
        BackupStorageRef: {
            /** @enum {string} */
            kind: "local";
            /** @description a directory on the control plane's host */
            root: string;
        } | {
            /** @enum {string} */
            kind: "s3";
            endpoint: string;
            bucket: string;
            region: string;
            /** @description key prefix inside the bucket (empty or ending in /) */
            prefix: string;
            /**
             * Format: uuid
             * @description the sealed access key pair, added to an agent's task on the way out
             */
            credentialsId: string;
        };
        HeartbeatResponse: {
            /** @description the task should stop early at a safe point (its operation was paused or cancelled) */
            stop: boolean;
        };
        TaskProgressRequest: {
            progress: number;
            detail?: string;
            migration?: components["schemas"]["MigrationProgress"];
        };
        CompleteTaskRequest: {
            /** @enum {string} */
            outcome: "succeeded" | "failed";
            error?: string;
            result?: {
                /** @enum {string} */
                kind: "failover";
                /** @description RFC 3339 timestamp */
                promotedAt: string;
                /** @enum {string} */
                mode: "force" | "takeover" | "switchover";
            } | {
                /** @enum {string} */
                kind: "repair-slots";
                repaired: {
                    slot: number;
                    movedKeys: number;
                }[];
            } | {
                /** @enum {string} */
                kind: "migrate-slots";
                /** @description false: stopped early (paused or cancelled) after closing the slot in flight */
                complete: boolean;
                slotsMoved: number;
                keysMoved: number;
                bytesMoved: number;
                /** @description complete runs: each primary's own slot count and open slots, read after the last slot closed */
                final?: {
                    /** Format: uuid */
                    instanceId: string;
                    slotsOwned: number;
                    openSlots: number;
                }[];
            } | {
                /** @enum {string} */
                kind: "backup-shard";
                bytes: number;
                sha256: string;
                keys: number;
                keysWithExpiry: number;
                usedMemoryBytes: number;
                engineVersion: string;
                /** @description RFC 3339 timestamp */
                snapshotAt: string;
                /** @description RFC 3339 timestamp */
                finishedAt: string;
                phases?: {
                    /** @description from the task's start to the snapshot streaming (the instance forked and answered) */
                    openMs: number;
                    /** @description from then to the snapshot's last byte read */
                    streamMs: number;
                    /** @description from the last byte read to the object stored (the last part and the completion) */
                    storeMs: number;
                    /** @description the agent process's CPU time meanwhile (all its work, not only this task's) */
                    cpuMs: number;
                };
            } | {
                /** @enum {string} */
                kind: "backup-consistent-start";
                /** @description from the first CLIENT PAUSE sent to the last CLIENT UNPAUSE answered */
                writePauseMs: number;
                shards: {
                    shard: number;
                    /** Format: uuid */
                    instanceId: string;
                    savesBefore: number;
                    /** @description RFC 3339 timestamp */
                    snapshotAt: string;
                }[];
            } | {
                /** @enum {string} */
                kind: "slowlog";
                instances: {
                    /** Format: uuid */
                    instanceId: string;
                    ok: boolean;
                    error?: string;
                    length: number | null;
                    slowerThanMicros: number | null;
                    maxLen: number | null;
                    /** @enum {string|null} */
                    role: "primary" | "replica" | null;
                    entries: {
                        /** @description the entry's id on its instance */
                        id: number;
                        /** @description when the command ran (second resolution) */
                        at: string;
                        durationMicros: number;
                        /** @description the command name, upper case */
                        command: string;
                        /** @description its arguments, each cut to 64 characters, at most 16; bytes that are not printable shown as \xHH */
                        args: string[];
                        /** @description arguments left out (by Redis or here) */
                        argsOmitted: number;
                        /** @description client address (host:port) */
                        client: string;
                        /** @description CLIENT SETNAME of the client, or empty */
                        clientName: string;
                    }[];
                }[];
            } | {
                /** @enum {string} */
                kind: "key-scan";
                keysScanned: number;
                /** @description DBSIZE when the scan began */
                keysInShard: number;
                /** @description false: the time budget ran out (or it was stopped) before SCAN went round */
                complete: boolean;
                elapsedMs: number;
                batches: number;
                bigKeys: components["schemas"]["BigKey"][];
                hotKeys: components["schemas"]["HotKey"][] | null;
            } | {
                /** @enum {string} */
                kind: "restore-keys";
                /** @description keys the temporary engine loaded */
                keysTotal: number;
                keysMoved: number;
                /** @description keys whose TTL ran out before they were moved */
                keysExpired: number;
            };
        };
        MetricsResult: {
            /** @description unix seconds */
            from: number;
            to: number;
            step: number;
            /**
             * @description memory: hot 1 s window; raw: 1 s points in PostgreSQL; rollup: 1 min rollups
             * @enum {string}
             */
            source: "memory" | "raw" | "rollup";
            /** @description unix seconds, start of each step */
            timestamps: number[];
            series: {
                metric: string;
                scope: ("cluster" | "shard" | "instance") | "node";
                shard: number | null;
                instanceId: string | null;
                /** @enum {string|null} */
                role: "primary" | "replica" | null;
                /** @description one value per timestamp; null where no sample */
                values: (number | null)[];
            }[];
        };
        ClusterCurrentMetricsList: {
            items: {
                /** Format: uuid */
                clusterId: string;
                ts: number | null;
                ops: number | null;
                opsRead: number | null;
                opsWrite: number | null;
                latencyP99: number | null;
                memoryUsed: number | null;
            }[];
        };
        NodeCurrentMetricsList: {
            items: {
                /** Format: uuid */
                nodeId: string;
                ts: number | null;
                cpu: number | null;
                memoryTotal: number | null;
                memoryUsed: number | null;
                diskTotal: number | null;
                diskUsed: number | null;
            }[];
        };
        AgentMetricsBatch: {
            host: {
                ts: number;
                /** @description Busy share of all host CPUs over the interval */
                cpu: number;
                memoryTotal: number;
                memoryAvailable: number;
                diskTotal: number;
                diskFree: number;
            }[];
            instances: {
                /** Format: uuid */
                instanceId: string;
                /** Format: uuid */
                clusterId: string;
                /** @description Unix ms of the sample, on a whole second */
                ts: number;
                /** @description Time the counter deltas cover */
                intervalMs: number;
                /** @enum {string} */
                role: "primary" | "replica";
                /** @description The engine restarted (or reset its stats) since the previous sample */
                restarted: boolean;
                reads: number;
                /** @description On a replica: writes applied from the replication stream */
                writes: number;
                others: number;
                /** @description Read+write calls per power-of-two latency bucket in this interval */
                latency: number[];
                latencySumUs: number;
                clients: number;
                usedMemory: number;
                maxMemory: number;
                keys: number;
                evicted: number;
                expired: number;
                hits: number;
                misses: number;
                netIn: number;
                netOut: number;
                cpuSeconds: number;
                /** @description On a primary: offset lag of each connected replica */
                replicas: {
                    host: string;
                    port: number;
                    lagBytes: number;
                }[];
            }[];
            status?: components["schemas"]["AgentStatusReport"] & unknown;
        };
        Benchmark: {
            /** Format: uuid */
            id: string;
            /** Format: uuid */
            clusterId: string;
            /** @enum {string} */
            workload: "ycsb-a" | "ycsb-b" | "ycsb-c" | "ycsb-d" | "ycsb-f" | "getset" | "analytic";
            /** @enum {string} */
            state: "pending" | "loading" | "warmup" | "running" | "succeeded" | "failed" | "cancelled";
            progress: number;
            detail?: string;
            request: components["schemas"]["BenchmarkRequest"];
            result?: components["schemas"]["BenchmarkResult"];
            error?: {
                code: string;
                message: string;
            };
            /** @description RFC 3339 timestamp */
            createdAt: string;
            /** @description RFC 3339 timestamp */
            startedAt?: string;
            /** @description RFC 3339 timestamp */
            finishedAt?: string;
        };
        BenchmarkRequest: {
            /** @enum {string} */
            workload: "ycsb-a" | "ycsb-b" | "ycsb-c" | "ycsb-d" | "ycsb-f" | "getset" | "analytic";
            /**
             * @description records loaded (YCSB) or key range (getset)
             * @default 100000
             */
            recordCount: number;
            /** @description stop after this many operations (steady phase) */
            operationCount?: number;
            /** @description steady phase length; default 10 when operationCount is absent */
            durationSec?: number;
            /** @default 2 */
            warmupSec: number;
            /**
             * @description closed-loop clients in total, spread over workers
             * @default 16
             */
            connections: number;
            /**
             * @description requests in flight per client
             * @default 1
             */
            pipeline: number;
            /** @description open loop at this total rate; absent = capacity run */
            targetOpsPerSec?: number;
            /** @description worker threads in total; default one per chosen node */
            workers?: number;
            /** @description agents that run workers; default every online node of the cluster */
            nodeIds?: string[];
            seed?: number;
            /**
             * @description getset value bytes
             * @default 100
             */
            valueSize: number;
            /**
             * @description getset SET:GET
             * @default 1:1
             */
            ratio: string;
            /**
             * @description getset key distribution
             * @default uniform
             * @enum {string}
             */
            keyPattern: "uniform" | "gaussian";
            /**
             * @description load records before the run (YCSB, analytic, getset); a run only ever sees its own keys, removed when it ends, so without a load its reads miss
             * @default true
             */
            load: boolean;
            /**
             * @description analytic: repetitions, mean reported
             * @default 5
             */
            runs: number;
            fault?: components["schemas"]["BenchmarkFault"];
        };
        /** @description inject a fault mid-run (the "Failover under load" preset) */
        BenchmarkFault: {
            /**
             * @description kill -9 of one shard's primary, done by the agent on its node
             * @enum {string}
             */
            kind: "kill-primary";
            /** @default 0 */
            shard: number;
            /**
             * @description seconds into the steady phase
             * @default 5
             */
            atSec: number;
        };
        BenchmarkResult: {
            opsPerSec: number;
            totalOps: number;
            steadySec: number;
            ops: components["schemas"]["BenchmarkOpStats"][];
            series: components["schemas"]["BenchmarkPoint"][];
            shards: components["schemas"]["BenchmarkShardOps"][];
            validity: components["schemas"]["BenchmarkValidity"];
            workers: {
                /** Format: uuid */
                nodeId: string;
                host: string;
                threads: number;
                connections: number;
                /** @description busiest load generator thread, fraction of one core */
                cpu: number;
                scheduleLagP99Us?: number;
                /**
                 * @description what ran the run phase: 'native' (the C worker, closed-loop YCSB) or 'js' (worker threads)
                 * @enum {string}
                 */
                engine?: "native" | "js";
                /** @description why a closed-loop YCSB run phase ran in 'js', e.g. the native worker is not built on that node */
                engineNote?: string;
            }[];
            loadedKeys?: number;
            loadSec?: number;
            analytic?: components["schemas"]["AnalyticSummary"];
            fault?: components["schemas"]["BenchmarkFaultResult"];
            environment: {
                engineVersion: string;
                shards: number;
                replicasPerShard: number;
                durability: string;
                /** @enum {string} */
                mode: "capacity" | "open-loop";
                seed: number;
            };
        };
        BenchmarkOpStats: {
            /** @description read, update, insert, rmw, get, set, scan */
            op: string;
            count: number;
            errors: number;
            misses: number;
            opsPerSec: number;
            service: components["schemas"]["LatencySummary"];
            response?: components["schemas"]["LatencySummary"] & unknown;
        };
        /** @description send -> reply, microseconds */
        LatencySummary: {
            count: number;
            mean: number;
            p50: number;
            p95: number;
            p99: number;
            p999: number;
            max: number;
        };
        BenchmarkShardOps: {
            /** @description primary host:port */
            endpoint: string;
            /** @description operations the client sent there in the steady window */
            clientOps: number;
            /** @description commands the server counted in the same window */
            serverOps?: number;
            /** @description the node's own LATENCY HISTOGRAM for the steady window (command execution only, no network): percentiles are bucket upper bounds, microseconds */
            serverLatency?: {
                /** @description the workload's commands the node executed in the window */
                calls: number;
                p50: number;
                p99: number;
                p999: number;
                max: number;
                /** @description per non-empty bucket: its upper bound (us) and count */
                buckets: {
                    leUs: number;
                    count: number;
                }[];
            };
        };
        BenchmarkValidity: {
            valid: boolean;
            reasons: {
                /** @enum {string} */
                gate: "client-cpu" | "schedule-lag" | "errors" | "misses" | "redirects" | "key-count" | "worker-lost" | "fault";
                message: string;
            }[];
            /** @description closed loop: latency not corrected for coordinated omission */
            coordinatedOmission: boolean;
        };
        AnalyticSummary: {
            /** @description distinct records visited (last run) */
            records: number;
            sentences: number;
            runsMs: number[];
            meanMs: number;
            recordsPerSec: number;
            /** @description longest single call on any node */
            longestBlockMs: number;
        };
        BenchmarkFaultResult: {
            /** @enum {string} */
            kind: "kill-primary";
            shard: number;
            /** Format: uuid */
            instanceId: string;
            endpoint: string;
            /** @description when the agent killed the primary; absent when it could not */
            injectedAtT?: number;
            injectError?: string;
            /** @description when the replica took over (the control plane's failover event, promotedAt) */
            failoverAtT?: number;
            failoverCause?: string;
            /** @description the failover event's own measure of the window without writes */
            writeUnavailableMs?: number | null;
            /** @description longest time with no acknowledged write to the shard's slots, as the clients saw it (10 ms resolution) */
            writeGapMs: number;
            writeGapStartT?: number;
            writeGapEndT?: number;
            /** @description operations that failed during the run (expected while the shard has no primary) */
            errors: number;
        };
        BenchmarkList: {
            items: components["schemas"]["Benchmark"][];
        };
        BenchmarkWorkerCommand: {
            /** @enum {string} */
            action: "wait";
        } | {
            /** @enum {string} */
            action: "load";
            from: number;
            to: number;
        } | {
            /** @enum {string} */
            action: "run";
            startAtMs: number;
            warmupSec: number;
            durationSec?: number;
            operationCount?: number;
            measureServer: boolean;
            /** @description kill this engine (on this host) at atMs (epoch) */
            fault?: {
                /** Format: uuid */
                instanceId: string;
                atMs: number;
            };
            /** @description record acknowledged writes only for the slots this primary owns at the start (the fault's shard) */
            watchEndpoint?: string;
        } | {
            /** @enum {string} */
            action: "analytic";
            primaries: string[];
        } | {
            /** @enum {string} */
            action: "stop";
        } | {
            /** @enum {string} */
            action: "exit";
        };
        BenchmarkWorkerReport: {
            /** @enum {string} */
            kind: "ready";
            primaries: string[];
        } | {
            /** @enum {string} */
            kind: "poll";
        } | {
            /** @enum {string} */
            kind: "load-progress";
            done: number;
        } | {
            /** @enum {string} */
            kind: "loaded";
            inserted: number;
            errors: number;
            firstError?: string;
        } | {
            /** @enum {string} */
            kind: "interval";
            t: number;
            /** @enum {string} */
            phase: "warmup" | "steady";
            ops: {
                op: string;
                count: number;
                errors: number;
                misses: number;
                service: string;
                response?: string;
            }[];
        } | {
            /** @enum {string} */
            kind: "done";
            ops: {
                op: string;
                count: number;
                errors: number;
                misses: number;
                service: string;
                response?: string;
            }[];
            endpointCommands: {
                [key: string]: number;
            };
            steadyStartMs: number;
            steadyEndMs: number;
            maxElu: number;
            scheduleLagP99Us?: number;
            /** @enum {string} */
            engine?: "native" | "js";
            engineNote?: string;
            redirects: number;
            firstError?: string;
            /** @description the run's own keys on the primaries before the run (first host only) */
            keyCount?: number;
            /** @description per primary: commands processed in the steady window (first host only) */
            serverCommands?: {
                [key: string]: number;
            };
            /** @description per primary: LATENCY HISTOGRAM of the workload's commands over the steady window (first host only) */
            serverLatency?: {
                [key: string]: {
                    calls: number;
                    buckets: [
                        number,
                        number
                    ][];
                };
            };
            writeSlots?: {
                startMs: number;
                slotMs: number;
                /** @description base64 bitmap: slot i had an acknowledged write */
                bits: string;
            };
        } | {
            /** @enum {string} */
            kind: "fault";
            injectedAtMs: number;
            error?: string;
        } | {
            /** @enum {string} */
            kind: "analytic";
            records: number;
            sentences: number;
            ms: number;
            longestBatchMs: number;
            errors: number;
            firstError?: string;
        } | {
            /** @enum {string} */
            kind: "failed";
            message: string;
        };
        DiskProfileAccepted: {
            profile: components["schemas"]["DiskProfile"];
        };
        DiskProfile: {
            /** Format: uuid */
            id: string;
            /** Format: uuid */
            nodeId: string;
            nodeName: string;
            /** @enum {string} */
            status: "running" | "completed" | "failed" | "cancelled";
            /** @enum {string|null} */
            preset: "rebench-default" | "block-size-sweep" | "queue-depth-sweep" | "redis" | null;
            /** @description what runs, in order (a preset expanded) */
            workloads: components["schemas"]["ProfileWorkload"][];
            progress: number;
            detail: string | null;
            facts: components["schemas"]["NodeDiskFacts"];
            results: components["schemas"]["ProfileResult"][];
            advice: components["schemas"]["DurabilityAdvice"];
            /** @description clusters with instances on the node, with their load when the run started (and during it, on the stream) */
            clusters: {
                /** Format: uuid */
                clusterId: string;
                clusterName: string;
                opsPerSec: number | null;
                latencyP99Us: number | null;
            }[];
            error: {
                code: string;
                message: string;
            } | null;
            /** @description RFC 3339 timestamp */
            createdAt: string;
            /** @description RFC 3339 timestamp */
            finishedAt: string | null;
        };
        /** @description the node's data volume, read by the agent at the start */
        NodeDiskFacts: {
            dataDir: string;
            /** @description the mount source of the data volume */
            device: string;
            filesystem: string;
            mountOptions: string;
            /** @description the block device says it spins (null: not known) */
            rotational: boolean | null;
            freeBytes: number;
            totalBytes: number;
            kernel: string;
            fioVersion: string;
        } | null;
        /** @description the Redis preset: predicted write ceiling of each durability level */
        DurabilityAdvice: {
            levels: {
                /**
                 * @description none: in memory only; aof-everysec: append-only file fsynced every second; aof-always: fsync on every write
                 * @enum {string}
                 */
                durability: "none" | "aof-everysec" | "aof-always";
                /** @description predicted writes per second one shard can persist on this disk with one client; null: not bounded by the disk */
                writesPerSec: number | null;
                summary: string;
            }[];
            fsyncP50Us: number;
            fsyncP99Us: number;
            /** @description buffered append throughput (aof-everysec, rewrites) */
            appendMbPerSec: number;
            /** @description sequential write burst throughput (RDB-like) */
            snapshotMbPerSec: number;
        } | null;
        DiskProfileRequest: {
            /** @enum {string} */
            preset?: "rebench-default" | "block-size-sweep" | "queue-depth-sweep" | "redis";
            workloads?: components["schemas"]["ProfileWorkload"][];
            /** @description preset: the test file size of every workload (default per preset) */
            fileSize?: number;
            /** @description preset: seconds per workload (default per preset) */
            durationSec?: number;
            /**
             * @description run even when clusters on the node are busy (their latency is shown during the run)
             * @default false
             */
            force: boolean;
        };
        DiskProfileList: {
            items: components["schemas"]["DiskProfile"][];
        };
        DurabilityAdviceList: {
            fleet: components["schemas"]["DurabilityAdvice"];
            items: {
                /** Format: uuid */
                nodeId: string;
                nodeName: string;
                /** Format: uuid */
                profileId: string;
                /** @description RFC 3339 timestamp */
                profiledAt: string;
                advice: components["schemas"]["DurabilityAdvice"];
            }[];
        };
        DiskProfileCommand: {
            stop: boolean;
        };
        DiskProfileReport: {
            progress: number;
            detail?: string;
            facts?: components["schemas"]["NodeDiskFacts"];
            result?: components["schemas"]["ProfileResult"];
            finished?: {
                /** @enum {string} */
                status: "completed" | "failed" | "cancelled";
                code?: string;
                message?: string;
            };
        };
        AlertRule: {
            /** Format: uuid */
            id: string;
            /**
             * Format: uuid
             * @description null: an organization rule, evaluated for each of its clusters
             */
            clusterId: string | null;
            name: string;
            /**
             * @description memory_used_percent (%), ops_per_sec, latency_p99_ms (server-side, ms), replication_lag_bytes (bytes), connected_clients, evictions (keys/s), cluster_degraded, failover, node_down, backup_failed
             * @enum {string}
             */
            metric: "memory_used_percent" | "ops_per_sec" | "latency_p99_ms" | "replication_lag_bytes" | "connected_clients" | "evictions" | "cluster_degraded" | "failover" | "node_down" | "backup_failed";
            threshold: number;
            forSeconds: number;
            channelIds: string[];
            enabled: boolean;
            /** @description alerts of this rule firing now */
            firing: number;
            /** @description RFC 3339 timestamp */
            createdAt: string;
        };
        CreateAlertRuleRequest: {
            /** @description default: the metric and threshold in words */
            name?: string;
            /**
             * @description memory_used_percent (%), ops_per_sec, latency_p99_ms (server-side, ms), replication_lag_bytes (bytes), connected_clients, evictions (keys/s), cluster_degraded, failover, node_down, backup_failed
             * @enum {string}
             */
            metric: "memory_used_percent" | "ops_per_sec" | "latency_p99_ms" | "replication_lag_bytes" | "connected_clients" | "evictions" | "cluster_degraded" | "failover" | "node_down" | "backup_failed";
            /**
             * @description fires while the value is above it (for events: more than this many in the window); default 0
             * @default 0
             */
            threshold: number;
            /** @description how long the value must stay above the threshold before the alert fires (events: the window counted) */
            forSeconds: number;
            /**
             * @description notification channels told when an alert fires and resolves
             * @default []
             */
            channelIds: string[];
            /** @default true */
            enabled: boolean;
        };
        AlertRuleList: {
            items: components["schemas"]["AlertRule"][];
        };
        PrometheusRuleFile: {
            groups: {
                name: string;
                rules: {
                    alert: string;
                    /** @description PromQL over the series of /metrics */
                    expr: string;
                    /** @description e.g. 60s */
                    for: string;
                    labels: {
                        strata_rule_id: string;
                        /**
                         * @description memory_used_percent (%), ops_per_sec, latency_p99_ms (server-side, ms), replication_lag_bytes (bytes), connected_clients, evictions (keys/s), cluster_degraded, failover, node_down, backup_failed
                         * @enum {string}
                         */
                        metric: "memory_used_percent" | "ops_per_sec" | "latency_p99_ms" | "replication_lag_bytes" | "connected_clients" | "evictions" | "cluster_degraded" | "failover" | "node_down" | "backup_failed";
                    };
                    annotations: {
                        summary: string;
                    };
                }[];
            }[];
        };
        UpdateAlertRuleRequest: {
            name?: string;
            threshold?: number;
            forSeconds?: number;
            /** @description notification channels told when an alert fires and resolves */
            channelIds?: string[];
            enabled?: boolean;
        };
        AlertList: {
            items: components["schemas"]["Alert"][];
        };
        Alert: {
            /** Format: uuid */
            id: string;
            /** Format: uuid */
            ruleId: string;
            ruleName: string;
            /**
             * @description memory_used_percent (%), ops_per_sec, latency_p99_ms (server-side, ms), replication_lag_bytes (bytes), connected_clients, evictions (keys/s), cluster_degraded, failover, node_down, backup_failed
             * @enum {string}
             */
            metric: "memory_used_percent" | "ops_per_sec" | "latency_p99_ms" | "replication_lag_bytes" | "connected_clients" | "evictions" | "cluster_degraded" | "failover" | "node_down" | "backup_failed";
            threshold: number;
            forSeconds: number;
            /** Format: uuid */
            clusterId: string;
            clusterName: string;
            /** @enum {string} */
            state: "firing" | "resolved";
            /** @description the value when it fired */
            value: number;
            unit: string;
            /** @description when it fired */
            startedAt: string;
            /** @description RFC 3339 timestamp */
            resolvedAt: string | null;
        };
        NotificationChannel: {
            /** Format: uuid */
            id: string;
            /** @enum {string} */
            type: "webhook" | "email";
            name: string;
            url: string | null;
            /** @enum {string|null} */
            format: "json" | "slack" | null;
            to: string[] | null;
            /** @description the secret itself is never shown */
            hasSecret: boolean;
            /** @description RFC 3339 timestamp */
            createdAt: string;
        };
        CreateNotificationChannelRequest: {
            /** @enum {string} */
            type: "webhook";
            name?: string;
            /** @description http(s) URL that receives a POST per notification */
            url: string;
            /** @description HMAC-SHA256 key for X-Strata-Signature (write-only) */
            secret: string;
            /**
             * @description slack: a Slack incoming-webhook body ({"text": ...})
             * @default json
             * @enum {string}
             */
            format: "json" | "slack";
        } | {
            /** @enum {string} */
            type: "email";
            name?: string;
            /** @description recipients */
            to: string[];
        };
        NotificationChannelList: {
            items: components["schemas"]["NotificationChannel"][];
        };
        NotificationDelivery: {
            /** Format: uuid */
            id: string;
            /** Format: uuid */
            channelId: string;
            /**
             * Format: uuid
             * @description null: a test
             */
            alertId: string | null;
            /** @enum {string} */
            event: "firing" | "resolved" | "test";
            /** @enum {string} */
            status: "pending" | "delivered" | "failed";
            attempts: {
                attempt: number;
                /** @description RFC 3339 timestamp */
                at: string;
                /** @description HTTP status (webhooks), 250 for an accepted e-mail; null when no answer */
                statusCode: number | null;
                error: string | null;
                durationMs: number;
            }[];
            /** @description RFC 3339 timestamp */
            createdAt: string;
            /** @description RFC 3339 timestamp */
            deliveredAt: string | null;
        };
        NotificationDeliveryList: {
            items: components["schemas"]["NotificationDelivery"][];
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export type operations = Record<string, never>;
