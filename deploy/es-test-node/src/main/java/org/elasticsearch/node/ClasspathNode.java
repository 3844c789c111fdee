package org.elasticsearch.node;

import org.elasticsearch.common.settings.Settings;
import org.elasticsearch.env.Environment;
import org.elasticsearch.plugins.ClasspathPluginsService;
import org.elasticsearch.plugins.Plugin;
import org.elasticsearch.plugins.PluginsLoader;
import org.elasticsearch.plugins.PluginsService;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A Node whose plugins are plain classes on the classpath (e.g. Netty4Plugin for HTTP).
 *
 * Lives in org.elasticsearch.node because NodeConstruction.prepareConstruction,
 * NodeServiceProvider and Node(NodeConstruction) are package-private in ES 9.
 */
public final class ClasspathNode extends Node {
    public ClasspathNode(Settings settings, Collection<Class<? extends Plugin>> pluginClasses) {
        this(new Environment(settings, null), List.copyOf(pluginClasses));
    }

    private ClasspathNode(Environment environment, List<Class<? extends Plugin>> pluginClasses) {
        super(NodeConstruction.prepareConstruction(
            environment,
            PluginsLoader.createPluginsLoader(Set.of(), Set.of(), Map.of(), false),
            new NodeServiceProvider() {
                @Override
                PluginsService newPluginService(Environment env, PluginsLoader pluginsLoader) {
                    return new ClasspathPluginsService(env.settings(), pluginsLoader, pluginClasses);
                }
            },
            true
        ));
    }
}
