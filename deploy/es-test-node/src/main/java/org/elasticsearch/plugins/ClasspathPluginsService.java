package org.elasticsearch.plugins;

import org.elasticsearch.Build;
import org.elasticsearch.common.settings.Settings;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * PluginsService that serves a fixed list of plugin classes found on the JVM classpath
 * (no plugins/ or modules/ directories, no module layers).
 *
 * Lives in org.elasticsearch.plugins because PluginsService.loadPlugin / LoadedPlugin
 * are package-private. This is a split package on the plain classpath, which is fine
 * because the node runs in the unnamed module (no --module-path).
 */
public final class ClasspathPluginsService extends PluginsService {
    private final List<LoadedPlugin> classpathPlugins;

    public ClasspathPluginsService(Settings settings, PluginsLoader emptyLoader, Collection<Class<? extends Plugin>> pluginClasses) {
        super(settings, null, emptyLoader);
        List<LoadedPlugin> loaded = new ArrayList<>(pluginClasses.size());
        ClassLoader loader = ClasspathPluginsService.class.getClassLoader();
        for (Class<? extends Plugin> pluginClass : pluginClasses) {
            Plugin plugin = loadPlugin(pluginClass, settings, null);
            PluginDescriptor descriptor = new PluginDescriptor(
                pluginClass.getName(),                 // name
                "classpath plugin",                    // description
                "NA",                                  // version
                Build.current().version(),             // elasticsearch version
                "21",                                  // java version
                pluginClass.getName(),                 // class name
                null,                                  // module name
                List.of(),                             // extended plugins
                false,                                 // has native controller
                false,                                 // licensed
                false,                                 // modular
                false,                                 // stable
                PluginDescriptor.DeploymentTarget.ALL
            );
            loaded.add(new LoadedPlugin(descriptor, plugin, loader));
        }
        loadExtensions(loaded);
        this.classpathPlugins = List.copyOf(loaded);
    }

    @Override
    protected List<LoadedPlugin> plugins() {
        return classpathPlugins;
    }
}
